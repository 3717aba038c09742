import { Link } from '@tanstack/react-router'
import { PageContainer } from '../../components/layout/page-container.tsx'
import { Alert } from '../../components/ui/alert.tsx'
import { Button, buttonClasses } from '../../components/ui/button.tsx'

type OrganizationLoadErrorProps = { message: string; onRetry: () => void }

export function OrganizationLoadError({ message, onRetry }: OrganizationLoadErrorProps) {
  return (
    <PageContainer narrow>
      <div className="flex flex-col gap-4">
        <Alert>{message}</Alert>
        <div className="flex gap-2">
          <Button variant="secondary" onClick={onRetry}>
            Try again
          </Button>
          <Link to="/organizations" className={buttonClasses('ghost')}>
            Choose an organization
          </Link>
        </div>
      </div>
    </PageContainer>
  )
}
