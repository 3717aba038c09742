import { createFileRoute } from '@tanstack/react-router'
import { SignUpRulesSection } from '../features/admin/access/sign-up-rules-section.tsx'
import { SingleSignOnSection } from '../features/admin/access/single-sign-on-section.tsx'

/** docs/product/admin.md "Access tab": who may sign up, and single sign-on. */
export const Route = createFileRoute('/_authenticated/admin/access')({
  component: AccessPanel,
})

function AccessPanel() {
  return (
    <>
      <SignUpRulesSection />
      <SingleSignOnSection />
    </>
  )
}
