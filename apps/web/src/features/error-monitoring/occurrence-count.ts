/** '1 occurrence', '12 occurrences'. */
export function occurrenceCount(count: number): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'occurrence' : 'occurrences'}`
}
