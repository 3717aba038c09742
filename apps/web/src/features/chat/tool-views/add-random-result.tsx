import { parseAddRandom } from '@sprout/protocol/tool-formats/add-random.ts'
import { OutputBlock } from './output-block.tsx'
import { inputField, toolOutputText } from './tool-output-text.ts'

/** add_random: the input, the random value added and the result. */
export function AddRandomResult({ input, output }: { input: unknown; output: unknown }) {
  const text = toolOutputText(output)
  const parsed = parseAddRandom(text)
  if (!parsed) return <OutputBlock text={text} />
  const num = inputField(input, 'num')
  const start = typeof num === 'number' ? num : parsed.result - parsed.added
  return (
    <dl data-testid="add-random-result" className="grid grid-cols-[auto_1fr] gap-x-3 text-sm">
      <dt className="text-zinc-500">Input</dt>
      <dd className="font-mono">{start}</dd>
      <dt className="text-zinc-500">Random value added</dt>
      <dd className="font-mono">{parsed.added}</dd>
      <dt className="text-zinc-500">Result</dt>
      <dd className="font-mono font-semibold">{parsed.result}</dd>
    </dl>
  )
}
