import { z } from 'zod'

/** Sizes every request field stays within, so none reaches the database or an index unchecked. */
export const ID_MAX = 100
export const MODEL_ID_MAX = 200
export const URL_MAX = 2048
export const EMAIL_MAX = 254
export const CURSOR_MAX = 1000
/** A JWT or an opaque token in a query. */
export const TOKEN_MAX = 4096

export const maxText = (max: number) => `must be at most ${max.toLocaleString('en-US')} characters`

/** A non-empty id (a UUID, a service name): longer ones name nothing. */
export const idText = () => z.string().min(1, 'must not be empty').max(ID_MAX, maxText(ID_MAX))
export const boundedText = (max: number) => z.string().max(max, maxText(max))
