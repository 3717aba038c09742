import type { Task, TaskList } from '@sprout/protocol/tool-formats/tasks.ts'
import { useState } from 'react'
import { CheckIcon, CircleIcon, CrossIcon } from '../../../components/ui/icons.tsx'
import { classNames } from '../../../lib/class-names.ts'

/**
 * docs/product/tool-calls.md "Task": grey circle, green check struck through, red cross struck in
 * red.
 */
export function TodosView({ list }: { list: TaskList }) {
  if (list.tasks.length === 0) return <p className="text-xs text-zinc-500">No tasks</p>
  return (
    <ul aria-label={list.title ?? 'Tasks'} className="flex flex-col gap-1">
      {list.tasks.map((task) => (
        <TaskItem key={task.id} task={task} />
      ))}
    </ul>
  )
}

function TaskItem({ task }: { task: Task }) {
  const [showNotes, setShowNotes] = useState(false)
  return (
    <li data-status={task.status} className="flex flex-col gap-1 text-sm">
      <div className="flex items-start gap-2">
        <TaskStatusIcon status={task.status} />
        <span
          className={classNames(
            'min-w-0 flex-1',
            task.status === 'incomplete' && 'text-zinc-800',
            task.status === 'complete' && 'text-zinc-500 line-through',
            task.status === 'canceled' && 'text-red-600 line-through decoration-red-600',
          )}
        >
          {task.title}
        </span>
        {task.notes && (
          <button
            type="button"
            aria-expanded={showNotes}
            onClick={() => setShowNotes((shown) => !shown)}
            className="shrink-0 text-xs text-zinc-500 underline-offset-2 hover:text-zinc-800 hover:underline"
          >
            {showNotes ? 'Hide notes' : 'Notes'}
          </button>
        )}
      </div>
      {task.notes && showNotes && (
        <p className="ml-6 text-xs whitespace-pre-wrap text-zinc-600">{task.notes}</p>
      )}
    </li>
  )
}

function TaskStatusIcon({ status }: { status: Task['status'] }) {
  switch (status) {
    case 'complete':
      return (
        <span role="img" aria-label="Complete" className="mt-0.5 text-emerald-600">
          <CheckIcon />
        </span>
      )
    case 'canceled':
      return (
        <span role="img" aria-label="Canceled" className="mt-0.5 text-red-600">
          <CrossIcon />
        </span>
      )
    case 'incomplete':
      return (
        <span role="img" aria-label="Incomplete" className="mt-0.5 text-zinc-400">
          <CircleIcon />
        </span>
      )
  }
}
