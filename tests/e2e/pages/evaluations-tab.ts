import { PageObject } from './page-object.ts'

/** The admin panel's Conversation Evaluations tab and the evaluation execution page. */
export class EvaluationsTab extends PageObject {
  readonly heading = this.page.getByRole('heading', { name: 'Conversation Evaluations' })
  readonly evaluateButton = this.page.getByRole('button', { name: 'Evaluate', exact: true })
  readonly loadMoreButton = this.page.getByRole('button', { name: 'Load More' })
  readonly configureDialog = this.page.getByRole('dialog', { name: 'Configure Evaluation' })
  readonly startButton = this.configureDialog.getByRole('button', { name: 'Start Evaluation' })
  readonly progress = this.page.getByTestId('evaluation-progress-text')
  readonly results = this.page.getByRole('list', { name: 'Evaluation results' })
  readonly exportCsvButton = this.page.getByRole('button', { name: 'Export CSV' })
  readonly exportJsonButton = this.page.getByRole('button', { name: 'Export JSON' })
  readonly newEvaluationButton = this.page.getByRole('button', { name: 'New Evaluation' })
  readonly executionHeading = this.page.getByRole('heading', { name: 'Evaluation Execution' })
  readonly executionItems = this.page
    .getByRole('list', { name: 'Evaluation items' })
    .getByRole('listitem')
  readonly viewFullResults = this.page.getByRole('link', { name: 'View Full Results' })
  readonly backToEvaluations = this.page.getByRole('link', { name: 'Back to Evaluations' })

  async goto() {
    await this.page.goto('/admin/evals')
  }

  row(title: string) {
    return this.page.getByRole('row', { name: title })
  }

  selectBox(title: string) {
    return this.row(title).getByRole('checkbox')
  }

  field(name: 'id' | 'status' | 'template' | 'concurrency') {
    return this.page.getByTestId(`evaluation-${name}`)
  }
}
