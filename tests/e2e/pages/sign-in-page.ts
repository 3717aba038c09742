import type { TestUser } from '../support/users.ts'
import { PageObject } from './page-object.ts'

export class SignInPage extends PageObject {
  readonly heading = this.page.getByRole('heading', { name: 'Sign in to Sprout' })
  readonly signUpLink = this.page.getByRole('main').getByRole('link', { name: 'Sign up' })

  async goto() {
    await this.page.goto('/signin')
  }

  async signIn(user: Pick<TestUser, 'email' | 'password'>) {
    await this.page.getByLabel('Email').fill(user.email)
    await this.page.getByLabel('Password').fill(user.password)
    // Exact: with single sign-on there is a 'Sign in with …' button too.
    await this.page.getByRole('button', { name: 'Sign in', exact: true }).click()
  }
}
