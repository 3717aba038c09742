import type { TestUser } from '../support/users.ts'
import { PageObject } from './page-object.ts'

export class SignUpPage extends PageObject {
  async goto() {
    await this.page.goto('/signup')
  }

  async signUp(user: TestUser) {
    await this.page.getByLabel('Name').fill(user.name)
    await this.page.getByLabel('Email').fill(user.email)
    await this.page.getByLabel('Password').fill(user.password)
    await this.page.getByRole('button', { name: 'Create account' }).click()
  }
}
