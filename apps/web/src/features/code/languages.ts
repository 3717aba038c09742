import { css } from '@codemirror/lang-css'
import { html } from '@codemirror/lang-html'
import { javascript } from '@codemirror/lang-javascript'
import { json } from '@codemirror/lang-json'
import { markdown } from '@codemirror/lang-markdown'
import { sql } from '@codemirror/lang-sql'
import type { Extension } from '@codemirror/state'

/** The highlighting of a file by its name (docs/product/versions.md "Code"); none for the rest. */
export function languageOf(path: string): Extension {
  const extension = path.split('.').at(-1)?.toLowerCase() ?? ''
  switch (extension) {
    case 'ts':
    case 'mts':
    case 'cts':
      return javascript({ typescript: true })
    case 'tsx':
      return javascript({ typescript: true, jsx: true })
    case 'js':
    case 'mjs':
    case 'cjs':
      return javascript()
    case 'jsx':
      return javascript({ jsx: true })
    case 'css':
      return css()
    case 'html':
    case 'htm':
      return html()
    case 'json':
      return json()
    case 'sql':
      return sql()
    case 'md':
    case 'markdown':
      return markdown()
    default:
      return []
  }
}
