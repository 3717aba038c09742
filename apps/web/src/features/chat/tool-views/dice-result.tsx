import { formatDiceNotation, parseRollDice } from '@sprout/protocol/tool-formats/roll-dice.ts'
import { OutputBlock } from './output-block.tsx'
import { inputField, toolOutputText } from './tool-output-text.ts'

const asNumber = (value: unknown) => (typeof value === 'number' ? value : undefined)

/** roll_dice: 'CdS', each roll, and the total when more than one die was rolled. */
export function DiceResult({ input, output }: { input: unknown; output: unknown }) {
  const text = toolOutputText(output)
  const roll = parseRollDice(text)
  if (!roll) return <OutputBlock text={text} />
  const notation = formatDiceNotation({
    count: asNumber(inputField(input, 'count')) ?? roll.rolls.length,
    sides: asNumber(inputField(input, 'sides')) ?? roll.sides,
  })
  return (
    <div data-testid="dice-result" className="flex flex-wrap items-center gap-2 text-sm">
      <span className="font-mono font-semibold text-zinc-800">{notation}</span>
      <ul aria-label="Rolls" className="flex flex-wrap gap-1">
        {roll.rolls.map((value, index) => (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: rolls are positional
            key={index}
            className="flex size-7 items-center justify-center rounded-md border border-zinc-300 bg-white font-mono text-sm font-semibold"
          >
            {value}
          </li>
        ))}
      </ul>
      {roll.rolls.length > 1 && (
        <span className="text-zinc-600">
          Total: <strong className="font-semibold text-zinc-900">{roll.total}</strong>
        </span>
      )}
    </div>
  )
}
