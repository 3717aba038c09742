import { SUCCESS_BANNER_DURATION_MS } from '@sprout/protocol/constants.ts'
import { useEffect, useState } from 'react'
import { iconButtonClasses } from '../../components/ui/icon-button.tsx'
import { RocketIcon } from '../../components/ui/icons.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { DeployNotice } from './deploy-notice.tsx'
import type { DeployOutcome } from './deploy-outcome.ts'
import { useDeployApplication } from './use-deploy-application.ts'

type DeployButtonProps = {
  applicationId: string
  /** Deployed before: the button offers a redeploy. */
  deployed: boolean
  onDeployed: (prodUrl: string) => void
}

/**
 * The admin's rocket (docs/product/deploys.md): builds and publishes the app, then says how it
 * went.
 */
export function DeployButton({ applicationId, deployed, onDeployed }: DeployButtonProps) {
  const deploy = useDeployApplication(onDeployed)
  const [outcome, setOutcome] = useState<DeployOutcome | undefined>()

  useEffect(() => {
    if (outcome?.kind !== 'success') return
    const timer = setTimeout(() => setOutcome(undefined), SUCCESS_BANNER_DURATION_MS)
    return () => clearTimeout(timer)
  }, [outcome])

  const title = deploy.isPending ? 'Deploying...' : deployed ? 'Redeploy to Production' : 'Deploy'

  return (
    <>
      <button
        type="button"
        title={title}
        aria-label={title}
        aria-busy={deploy.isPending}
        disabled={deploy.isPending}
        onClick={() => {
          setOutcome(undefined)
          deploy.mutate(applicationId, { onSuccess: setOutcome })
        }}
        className={`${iconButtonClasses} text-accent-700 hover:bg-accent-50 hover:text-accent-700 disabled:text-accent-700`}
      >
        {deploy.isPending ? <Spinner className="size-4" /> : <RocketIcon />}
      </button>
      {deploy.isPending && <DeployNotice kind="progress" message="Building and deploying…" />}
      {outcome && (
        <DeployNotice
          kind={outcome.kind}
          message={outcome.message}
          onClose={() => setOutcome(undefined)}
        />
      )}
    </>
  )
}
