import { Compartment, EditorState } from '@codemirror/state'
import { EditorView, keymap } from '@codemirror/view'
import { basicSetup } from 'codemirror'
import { useEffect, useRef } from 'react'
import { languageOf } from './languages.ts'

type CodeEditorProps = {
  /** Which file the editor shows: a new one replaces the text and the undo history. */
  path: string
  /** The text when `path` or `version` changes (a reload); typing does not come back through it. */
  initialText: string
  /** Bumped to put `initialText` in again for the same file (Reload). */
  version: number
  readOnly: boolean
  onChange: (text: string) => void
  onSave: () => void
  /** A place to put the cursor at once, e.g. a check's problem; each `id` is applied once. */
  reveal?: { line: number; column: number | null; id: number }
}

/**
 * CodeMirror 6 (docs/product/versions.md "Code"): one editor view for the tab's life; files and
 * read-only are swapped into it, so switching tabs or files never loses what was typed.
 */
export function CodeEditor({
  path,
  initialText,
  version,
  readOnly,
  onChange,
  onSave,
  reveal,
}: CodeEditorProps) {
  const hostRef = useRef<HTMLDivElement>(null)
  const viewRef = useRef<EditorView | undefined>(undefined)
  const language = useRef(new Compartment())
  const editable = useRef(new Compartment())
  const handlers = useRef({ onChange, onSave })
  handlers.current = { onChange, onSave }

  const stateFor = (text: string, filePath: string, isReadOnly: boolean) =>
    EditorState.create({
      doc: text,
      extensions: [
        keymap.of([
          {
            key: 'Mod-s',
            preventDefault: true,
            run: () => {
              handlers.current.onSave()
              return true
            },
          },
        ]),
        basicSetup,
        language.current.of(languageOf(filePath)),
        editable.current.of([
          EditorState.readOnly.of(isReadOnly),
          EditorView.editable.of(!isReadOnly),
        ]),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) handlers.current.onChange(update.state.doc.toString())
        }),
        // In the tab order, read-only too: a keyboard reaches the text and scrolls its
        // scroller (axe "scrollable-region-focusable" does not count contenteditable).
        EditorView.contentAttributes.of({ 'aria-label': `Code of ${filePath}`, tabindex: '0' }),
        EditorView.theme({ '&': { height: '100%' }, '.cm-scroller': { overflow: 'auto' } }),
      ],
    })

  // A new file or a reload: a fresh state (its own undo history).
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new file or a reload replaces the text.
  useEffect(() => {
    const state = stateFor(initialText, path, readOnly)
    if (viewRef.current) {
      viewRef.current.setState(state)
      return
    }
    if (!hostRef.current) return
    viewRef.current = new EditorView({ state, parent: hostRef.current })
  }, [path, version])

  const revealed = useRef<number | undefined>(undefined)
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new file or reload may come first.
  useEffect(() => {
    const view = viewRef.current
    if (!view || !reveal || revealed.current === reveal.id) return
    revealed.current = reveal.id
    const { doc } = view.state
    const line = doc.line(Math.min(Math.max(reveal.line, 1), doc.lines))
    const position = Math.min(line.from + Math.max((reveal.column ?? 1) - 1, 0), line.to)
    view.dispatch({
      selection: { anchor: position },
      effects: EditorView.scrollIntoView(position, { y: 'center' }),
    })
  }, [reveal, path, version])

  useEffect(() => {
    viewRef.current?.dispatch({
      effects: editable.current.reconfigure([
        EditorState.readOnly.of(readOnly),
        EditorView.editable.of(!readOnly),
      ]),
    })
  }, [readOnly])

  useEffect(
    () => () => {
      viewRef.current?.destroy()
      viewRef.current = undefined
    },
    [],
  )

  return <div ref={hostRef} className="h-full min-h-0 overflow-hidden text-[13px]" />
}
