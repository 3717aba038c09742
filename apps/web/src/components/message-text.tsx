import {
  type InlineNode,
  type MarkdownNode,
  parseLightMarkdown,
} from '@sprout/protocol/text/light-markdown.ts'
import { COMPACTION_NOTE_TEXT, prepareMessageText } from '@sprout/protocol/text/strip-markers.ts'
import { memo, type ReactNode, useMemo } from 'react'
import { classNames } from '../lib/class-names.ts'
import { HourglassIcon } from './ui/icons.tsx'
import { ScrollBlock } from './ui/scroll-block.tsx'

export type MessageVariant = 'user' | 'agent' | 'thinking'

type MessageTextProps = {
  text: string
  variant: MessageVariant
  /** Renders the secret widget for a secret-request tag; without it the key is named as text. */
  renderSecretRequest?: (key: string) => ReactNode
}

const variantClasses: Record<MessageVariant, string> = {
  user: 'text-zinc-900',
  agent: 'text-zinc-800',
  thinking: 'italic text-zinc-500',
}

/**
 * docs/product/builder.md "Message text rendering": light markdown turned into React elements. Text
 * only ever becomes text nodes, so HTML in a message shows as written and never runs.
 */
export const MessageText = memo(function MessageText({
  text,
  variant,
  renderSecretRequest,
}: MessageTextProps) {
  const prepared = useMemo(() => prepareMessageText(text), [text])
  const nodes = useMemo(
    () => (prepared.kind === 'text' ? parseLightMarkdown(prepared.text) : []),
    [prepared],
  )
  if (prepared.kind === 'hidden') return null
  if (prepared.kind === 'compaction') {
    return (
      <p className="flex items-center gap-2 text-sm font-bold text-zinc-700">
        <HourglassIcon className="size-4" />
        {COMPACTION_NOTE_TEXT}
      </p>
    )
  }
  return (
    <div
      data-variant={variant}
      className={classNames('text-sm leading-6 break-words', variantClasses[variant])}
    >
      {nodes.map((node, index) => (
        // Nodes have no identity beyond their position; a message only ever grows at its end.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <MarkdownBlock key={index} node={node} renderSecretRequest={renderSecretRequest} />
      ))}
    </div>
  )
})

function MarkdownBlock({
  node,
  renderSecretRequest,
}: {
  node: MarkdownNode
  renderSecretRequest: MessageTextProps['renderSecretRequest']
}) {
  switch (node.type) {
    case 'heading':
      return (
        <p className="font-bold">
          <Inline nodes={node.children} />
        </p>
      )
    case 'line':
      return (
        <p className="whitespace-pre-wrap">
          <Inline nodes={node.children} />
        </p>
      )
    case 'break':
      return <div aria-hidden="true" className="h-3" />
    case 'code-block':
      return (
        <ScrollBlock
          label={node.language ? `Code, ${node.language}` : 'Code'}
          className="my-1 overflow-x-auto rounded-lg bg-zinc-900 px-3 py-2 font-mono text-xs leading-5 text-zinc-100 not-italic"
        >
          <code data-language={node.language || undefined}>{node.text}</code>
        </ScrollBlock>
      )
    case 'secret-request':
      return renderSecretRequest ? (
        <div className="my-2">{renderSecretRequest(node.key)}</div>
      ) : (
        <p className="font-mono text-xs text-zinc-500">Secret requested: {node.key}</p>
      )
  }
}

function Inline({ nodes }: { nodes: InlineNode[] }) {
  // biome-ignore lint/suspicious/noArrayIndexKey: inline nodes are positional
  return nodes.map((node, index) => <InlineNodeView key={index} node={node} />)
}

function InlineNodeView({ node }: { node: InlineNode }) {
  switch (node.type) {
    case 'text':
      return node.text
    case 'bold':
      return (
        <strong className="font-semibold">
          <Inline nodes={node.children} />
        </strong>
      )
    case 'italic':
      return (
        <em>
          <Inline nodes={node.children} />
        </em>
      )
    case 'code':
      return (
        <code className="rounded bg-zinc-100 px-1 py-0.5 font-mono text-[0.85em] text-zinc-800 not-italic">
          {node.text}
        </code>
      )
    case 'link':
      // A new tab: the builder's run and its chat stay where they are.
      return (
        <a
          href={node.href}
          target="_blank"
          rel="noopener noreferrer"
          className="text-accent-700 underline underline-offset-2 hover:text-accent-600"
        >
          <Inline nodes={node.children} />
        </a>
      )
  }
}
