import { CenteredSpinner } from '../../components/ui/spinner.tsx'

export function SettingUpAccount() {
  return <CenteredSpinner label="Setting up your account..." />
}
