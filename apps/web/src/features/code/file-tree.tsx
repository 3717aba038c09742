import type { FileTreeEntry } from '@sprout/protocol/api/versions.ts'
import { useQuery } from '@tanstack/react-query'
import { type KeyboardEvent, useId, useState } from 'react'
import { classNames } from '../../lib/class-names.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { listFolder } from './code-api.ts'

export const folderQueryKey = (applicationId: string, path: string) =>
  ['applications', applicationId, 'files', path] as const

type FileTreeProps = {
  applicationId: string
  selectedPath: string | undefined
  /** Files with unsaved text, marked in the tree. */
  unsavedPaths: ReadonlySet<string>
  onOpen: (path: string) => void
}

/**
 * The workspace's files (docs/product/versions.md "Code"): a folder's entries are read when it is
 * opened. A WAI-ARIA tree: the arrow keys move and open or close folders, Enter opens a file.
 */
export function FileTree({ applicationId, selectedPath, unsavedPaths, onOpen }: FileTreeProps) {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set(['src']))
  const [focusedPath, setFocusedPath] = useState<string | undefined>(undefined)
  const toggle = (path: string, open?: boolean) =>
    setExpanded((current) => {
      const next = new Set(current)
      if (open ?? !next.has(path)) next.add(path)
      else next.delete(path)
      return next
    })

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    // Each item handles its own keys; its parent folder's item does not again.
    if (event.target !== event.currentTarget) return
    const tree = event.currentTarget.closest('[role="tree"]')
    const items = [...(tree?.querySelectorAll<HTMLElement>('[role="treeitem"]') ?? [])]
    const current = event.currentTarget
    const index = items.indexOf(current)
    const path = current.dataset.path
    const isFolder = current.dataset.type === 'directory'
    const focus = (item: HTMLElement | undefined) => {
      if (!item) return
      event.preventDefault()
      item.focus()
      setFocusedPath(item.dataset.path)
    }
    switch (event.key) {
      case 'ArrowDown':
        return focus(items[index + 1])
      case 'ArrowUp':
        return focus(items[index - 1])
      case 'Home':
        return focus(items[0])
      case 'End':
        return focus(items.at(-1))
      case 'ArrowRight':
        if (!path || !isFolder) return
        event.preventDefault()
        if (!expanded.has(path)) toggle(path, true)
        else focus(items[index + 1])
        return
      case 'ArrowLeft': {
        if (!path) return
        event.preventDefault()
        if (isFolder && expanded.has(path)) return toggle(path, false)
        const parent = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : undefined
        return focus(items.find((item) => item.dataset.path === parent))
      }
      case 'Enter':
      case ' ':
        if (!path) return
        event.preventDefault()
        if (isFolder) toggle(path)
        else onOpen(path)
        return
    }
  }

  return (
    <div role="tree" aria-label="Files" className="py-1 text-[13px]">
      <FolderEntries
        applicationId={applicationId}
        path=""
        depth={0}
        expanded={expanded}
        selectedPath={selectedPath}
        tabbablePath={focusedPath ?? selectedPath}
        unsavedPaths={unsavedPaths}
        onToggle={(path) => toggle(path)}
        onOpen={onOpen}
        onFocusPath={setFocusedPath}
        onKeyDown={onKeyDown}
      />
    </div>
  )
}

type FolderEntriesProps = {
  applicationId: string
  path: string
  depth: number
  expanded: ReadonlySet<string>
  selectedPath: string | undefined
  tabbablePath: string | undefined
  unsavedPaths: ReadonlySet<string>
  onToggle: (path: string) => void
  onOpen: (path: string) => void
  onFocusPath: (path: string) => void
  onKeyDown: (event: KeyboardEvent<HTMLElement>) => void
}

function FolderEntries(props: FolderEntriesProps) {
  const { applicationId, path, depth } = props
  const folder = useQuery({
    queryKey: folderQueryKey(applicationId, path),
    queryFn: () => listFolder(applicationId, path),
  })
  const indent = { paddingLeft: `${0.75 + depth * 0.875}rem` }
  if (folder.isPending) {
    return (
      <div role="none" style={indent} className="py-1 text-zinc-500">
        Loading…
      </div>
    )
  }
  if (folder.isError) {
    return (
      <div role="none" style={indent} className="py-1 text-red-700">
        {errorMessage(folder.error)}
      </div>
    )
  }
  const entries = folder.data.entries
  return entries.map((entry, index) => (
    <TreeEntry
      key={entry.path}
      {...props}
      entry={entry}
      // Without a focused or selected item, the first one of the root takes the Tab key.
      tabbable={
        props.tabbablePath === undefined
          ? depth === 0 && index === 0
          : props.tabbablePath === entry.path
      }
      indent={indent}
    />
  ))
}

function TreeEntry(
  props: FolderEntriesProps & {
    entry: FileTreeEntry
    tabbable: boolean
    indent: { paddingLeft: string }
  },
) {
  const { entry, expanded, selectedPath } = props
  const isFolder = entry.type === 'directory'
  const isOpen = isFolder && expanded.has(entry.path)
  const unsaved = props.unsavedPaths.has(entry.path)
  const groupId = useId()
  // A folder's entries follow its item, owned by it (aria-owns), not inside it: its name is
  // then all its visible text (axe "label-content-name-mismatch").
  return (
    <>
      <div
        role="treeitem"
        aria-label={entry.name}
        aria-expanded={isFolder ? isOpen : undefined}
        aria-owns={isOpen ? groupId : undefined}
        aria-selected={entry.path === selectedPath}
        data-path={entry.path}
        data-type={entry.type}
        tabIndex={props.tabbable ? 0 : -1}
        onFocus={(event) => {
          if (event.target === event.currentTarget) props.onFocusPath(entry.path)
        }}
        onKeyDown={props.onKeyDown}
        onClick={(event) => {
          event.stopPropagation()
          if (isFolder) props.onToggle(entry.path)
          else props.onOpen(entry.path)
        }}
        className="outline-none [&:focus-visible>div]:ring-2 [&:focus-visible>div]:ring-inset [&:focus-visible>div]:ring-zinc-400"
      >
        <div
          style={props.indent}
          className={classNames(
            'flex cursor-pointer items-center gap-1.5 truncate py-0.5 pr-2',
            entry.path === selectedPath
              ? 'bg-zinc-200 text-zinc-900'
              : 'text-zinc-700 hover:bg-zinc-100',
          )}
        >
          <span aria-hidden="true" className="w-3 shrink-0 text-zinc-500">
            {isFolder ? (isOpen ? '▾' : '▸') : ''}
          </span>
          <span className="truncate">{entry.name}</span>
          {unsaved && (
            <span className="text-zinc-500" title="Unsaved changes">
              ●
            </span>
          )}
        </div>
      </div>
      {isOpen && (
        // biome-ignore lint/a11y/useSemanticElements: a tree's group of items (WAI-ARIA tree), not a form's fieldset.
        <div role="group" id={groupId}>
          <FolderEntries {...props} path={entry.path} depth={props.depth + 1} />
        </div>
      )}
    </>
  )
}
