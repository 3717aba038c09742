import { diffLines } from '@sprout/protocol/tool-formats/line-diff.ts'
import { Fragment, useMemo } from 'react'
import { ScrollBlock } from '../../../components/ui/scroll-block.tsx'
import { classNames } from '../../../lib/class-names.ts'
import { OutputBlock } from './output-block.tsx'
import { inputString, toolOutputText } from './tool-output-text.ts'

const linePrefix = { context: ' ', added: '+', removed: '-' } as const
const lineClasses = {
  context: 'text-zinc-600',
  added: 'bg-emerald-50 text-emerald-800',
  removed: 'bg-red-50 text-red-700',
} as const

/** str_replace: a line diff of old_str against new_str with 4 lines of context around changes. */
export function EditDiff({ input, output }: { input: unknown; output: unknown }) {
  const oldText = inputString(input, 'old_str') ?? ''
  const newText = inputString(input, 'new_str') ?? ''
  const diff = useMemo(() => diffLines(oldText, newText), [oldText, newText])
  const text = toolOutputText(output)
  return (
    <div className="flex flex-col gap-2">
      <ScrollBlock
        as="div"
        label="Changes"
        data-testid="edit-diff"
        className="overflow-x-auto rounded-lg border border-zinc-200 bg-white py-1 font-mono text-xs leading-5"
      >
        {diff.hunks.length === 0 && <p className="px-3 text-zinc-500">(no changes)</p>}
        {diff.hunks.map((hunk, hunkIndex) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: hunks are positional and never reorder
          <Fragment key={hunkIndex}>
            {hunkIndex > 0 && <div className="px-3 text-zinc-400">⋯</div>}
            {hunk.lines.map((line, lineIndex) => (
              <div
                // biome-ignore lint/suspicious/noArrayIndexKey: lines are positional
                key={lineIndex}
                data-line={line.type}
                className={classNames('px-3 whitespace-pre', lineClasses[line.type])}
              >
                {linePrefix[line.type]} {line.text}
              </div>
            ))}
          </Fragment>
        ))}
      </ScrollBlock>
      {text !== '' && <OutputBlock text={text} />}
    </div>
  )
}
