import {
  integrationGuideText,
  integrationGuideWaitingText,
} from '@sprout/protocol/tool-formats/integration-guide.ts'
import { MessageText } from '../../../components/message-text.tsx'
import { inputString } from './tool-output-text.ts'

/** The integration guide: the question, an 'Expert Response' badge and the rendered answer. */
export function IntegrationGuideView({
  input,
  output,
  isStreaming,
}: {
  input: unknown
  output: unknown
  isStreaming: boolean
}) {
  const integration = inputString(input, 'integration') ?? ''
  const question = inputString(input, 'question')
  const answer = integrationGuideText(output)
  return (
    <div className="flex flex-col gap-2">
      {question && <p className="text-sm text-zinc-700">{question}</p>}
      {isStreaming && answer === '' ? (
        <p className="text-xs text-zinc-500">{integrationGuideWaitingText(integration)}</p>
      ) : (
        <>
          <span className="w-fit rounded-full bg-accent-100 px-2 py-0.5 text-xs font-medium text-accent-700">
            Expert Response
          </span>
          <MessageText text={answer} variant="agent" />
        </>
      )}
    </div>
  )
}
