import { describe, expectTypeOf, it } from 'vitest'
import type { SessionRecord, SessionUser } from '../http/app-env.ts'
import type { Auth } from './auth.ts'

// The request's user and session types are spelled out in http/app-env.ts (the platform's http
// imports no auth); tsc checks here that they stay what better-auth's plugins make them.
describe('the request session types', () => {
  it("are better-auth's, plugins included", () => {
    expectTypeOf<Auth['$Infer']['Session']['user']>().toExtend<SessionUser>()
    expectTypeOf<SessionUser>().toExtend<Auth['$Infer']['Session']['user']>()
    expectTypeOf<Auth['$Infer']['Session']['session']>().toExtend<SessionRecord>()
    expectTypeOf<SessionRecord>().toExtend<Auth['$Infer']['Session']['session']>()
  })
})
