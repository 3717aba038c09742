import type { Page } from '@playwright/test'

/** The admin panel's Conversation Evaluations tab and the evaluation execution page. */
export class EvaluationsTab {
  readonly page: Page
  readonly heading
  readonly evaluateButton
  readonly loadMoreButton
  readonly configureDialog
  readonly startButton
  readonly progress
  readonly results
  readonly exportCsvButton
  readonly exportJsonButton
  readonly newEvaluationButton
  readonly executionHeading
  readonly executionItems
  readonly viewFullResults
  readonly backToEvaluations

  constructor(page: Page) {
    this.page = page
    this.heading = page.getByRole('heading', { name: 'Conversation Evaluations' })
    this.evaluateButton = page.getByRole('button', { name: 'Evaluate', exact: true })
    this.loadMoreButton = page.getByRole('button', { name: 'Load More' })
    this.configureDialog = page.getByRole('dialog', { name: 'Configure Evaluation' })
    this.startButton = this.configureDialog.getByRole('button', { name: 'Start Evaluation' })
    this.progress = page.getByTestId('evaluation-progress-text')
    this.results = page.getByRole('list', { name: 'Evaluation results' })
    this.exportCsvButton = page.getByRole('button', { name: 'Export CSV' })
    this.exportJsonButton = page.getByRole('button', { name: 'Export JSON' })
    this.newEvaluationButton = page.getByRole('button', { name: 'New Evaluation' })
    this.executionHeading = page.getByRole('heading', { name: 'Evaluation Execution' })
    this.executionItems = page.getByRole('list', { name: 'Evaluation items' }).getByRole('listitem')
    this.viewFullResults = page.getByRole('link', { name: 'View Full Results' })
    this.backToEvaluations = page.getByRole('link', { name: 'Back to Evaluations' })
  }

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
