export type TestUser = { name: string; email: string; password: string }

/** The installation's admin: listed in ADMIN_EMAILS (server-environment.ts), signed up in global setup. */
export const adminUser: TestUser = {
  name: 'Ada Admin',
  email: 'admin@sprout.test',
  password: 'correct-horse-battery',
}

let counter = 0

/** A user nobody has signed up yet; unique across workers and runs. */
export function newUser(label: string): TestUser {
  counter += 1
  const unique = `${Date.now().toString(36)}${process.pid}${counter}`
  return {
    name: `${label} Tester`,
    email: `${label.toLowerCase()}-${unique}@sprout.test`,
    password: 'correct-horse-battery',
  }
}
