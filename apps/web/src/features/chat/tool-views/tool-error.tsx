/** docs/product/error-texts.md "Tool results": a failed tool shows a red block beginning 'Error:'. */
export function ToolError({ text }: { text: string }) {
  return (
    <pre
      role="alert"
      className="overflow-x-auto rounded-lg border border-red-200 bg-red-50 px-3 py-2 font-mono text-xs whitespace-pre-wrap text-red-700"
    >
      Error: {text || 'An unknown error occurred'}
    </pre>
  )
}
