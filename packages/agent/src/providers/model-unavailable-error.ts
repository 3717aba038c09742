/** A model that cannot run here; the message says which setting to add or what to pick instead. */
export class ModelUnavailableError extends Error {
  override name = 'ModelUnavailableError'
}
