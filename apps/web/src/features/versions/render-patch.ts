import 'diff2html/bundles/css/diff2html.min.css'
import './diff-theme.css'
import type { DiffFile } from '@sprout/protocol/api/versions.ts'
import { Diff2HtmlUI } from 'diff2html/lib-esm/ui/js/diff2html-ui-base.js'
import highlight from 'highlight.js/lib/core'
import bash from 'highlight.js/lib/languages/bash'
import css from 'highlight.js/lib/languages/css'
import javascript from 'highlight.js/lib/languages/javascript'
import json from 'highlight.js/lib/languages/json'
import markdown from 'highlight.js/lib/languages/markdown'
import plaintext from 'highlight.js/lib/languages/plaintext'
import sql from 'highlight.js/lib/languages/sql'
import typescript from 'highlight.js/lib/languages/typescript'
import xml from 'highlight.js/lib/languages/xml'

// Loaded only when a diff opens (a dynamic import), so the builder's bundle stays small. The
// languages are those of a Sprout app (docs/product/versions.md "Diffs").
const languages = { bash, css, javascript, json, markdown, plaintext, sql, typescript, xml }
for (const [name, language] of Object.entries(languages)) {
  highlight.registerLanguage(name, language)
}

export type DiffLayout = 'unified' | 'split'

/** The file's hunks with the headers git prints, which diff2html reads the paths from. */
function toGitPatch(file: DiffFile): string {
  const oldPath = file.previousPath ?? file.path
  const from = file.status === 'added' ? '/dev/null' : `a/${oldPath}`
  const to = file.status === 'deleted' ? '/dev/null' : `b/${file.path}`
  const patch = file.patch.endsWith('\n') ? file.patch : `${file.patch}\n`
  return `diff --git a/${oldPath} b/${file.path}\n--- ${from}\n+++ ${to}\n${patch}`
}

/**
 * Draws one file's diff into `target` with diff2html, syntax-coloured by highlight.js. Its
 * sideways scroll areas (a long line) take the keyboard's focus, each named for what it shows.
 */
export function renderPatch(target: HTMLElement, file: DiffFile, layout: DiffLayout): void {
  const view = new Diff2HtmlUI(
    target,
    toGitPatch(file),
    {
      outputFormat: layout === 'split' ? 'side-by-side' : 'line-by-line',
      drawFileList: false,
      matching: 'none',
      highlight: true,
      synchronisedScroll: true,
      fileListToggle: false,
      fileContentToggle: false,
      stickyFileHeaders: false,
      smartSelection: false,
    },
    highlight,
  )
  view.draw()
  const scrollAreas = target.querySelectorAll<HTMLElement>('.d2h-file-diff, .d2h-file-side-diff')
  const sides = scrollAreas.length === 2 ? ['before', 'after'] : ['changes']
  scrollAreas.forEach((area, index) => {
    area.tabIndex = 0
    area.setAttribute('role', 'region')
    area.setAttribute('aria-label', `${file.path}, ${sides[index] ?? 'changes'}`)
  })
}
