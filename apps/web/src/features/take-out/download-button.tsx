import { useState } from 'react'
import { Button } from '../../components/ui/button.tsx'
import { DOWNLOAD_FAILED, downloadZip } from './take-out-api.ts'

/** The preview toolbar's 'Download' (docs/product/versions.md "Download"). */
export function DownloadButton({ applicationId }: { applicationId: string }) {
  const [busy, setBusy] = useState(false)
  const [failed, setFailed] = useState(false)
  const download = async () => {
    setBusy(true)
    setFailed(false)
    try {
      await downloadZip(applicationId)
    } catch {
      setFailed(true)
    } finally {
      setBusy(false)
    }
  }
  return (
    <Button
      variant="ghost"
      size="sm"
      onClick={() => void download()}
      disabled={busy}
      title={failed ? DOWNLOAD_FAILED : 'Download the code as a zip'}
    >
      {failed ? DOWNLOAD_FAILED : 'Download'}
    </Button>
  )
}
