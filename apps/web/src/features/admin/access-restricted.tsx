import { NoticePage } from '../../components/layout/notice-page.tsx'
import { LockIcon } from '../../components/ui/icons.tsx'

/** What non-admins see on admin screens (docs/product/organizations.md "Access Restricted"). */
export function AccessRestricted() {
  return (
    <NoticePage
      icon={<LockIcon className="size-6" />}
      tone="muted"
      title="Access Restricted"
      message="You don't have permission to access this page."
      className="min-h-[50vh]"
    />
  )
}
