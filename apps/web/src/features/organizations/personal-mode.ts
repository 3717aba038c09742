// Without an active organization, personal mode is remembered per user in local storage
// (docs/product/organizations.md "Organization context").
const changeEvent = 'sprout:personal-mode-change'

export function personalModeKey(userId: string): string {
  return `hasSelectedPersonal_${userId}`
}

export function hasSelectedPersonal(userId: string): boolean {
  return window.localStorage.getItem(personalModeKey(userId)) === 'true'
}

export function setSelectedPersonal(userId: string, selected: boolean): void {
  if (selected) window.localStorage.setItem(personalModeKey(userId), 'true')
  else window.localStorage.removeItem(personalModeKey(userId))
  window.dispatchEvent(new Event(changeEvent))
}

/** Calls `listener` when the flag changes in this tab or another one. */
export function subscribePersonalMode(listener: () => void): () => void {
  window.addEventListener(changeEvent, listener)
  window.addEventListener('storage', listener)
  return () => {
    window.removeEventListener(changeEvent, listener)
    window.removeEventListener('storage', listener)
  }
}
