import type { Page } from '@playwright/test'
import type { TestUser } from '../support/users.ts'

export class SignInPage {
  readonly page: Page
  readonly heading
  readonly signUpLink

  constructor(page: Page) {
    this.page = page
    this.heading = page.getByRole('heading', { name: 'Sign in to Sprout' })
    this.signUpLink = page.getByRole('main').getByRole('link', { name: 'Sign up' })
  }

  async goto() {
    await this.page.goto('/signin')
  }

  async signIn(user: Pick<TestUser, 'email' | 'password'>) {
    await this.page.getByLabel('Email').fill(user.email)
    await this.page.getByLabel('Password').fill(user.password)
    await this.page.getByRole('button', { name: 'Sign in' }).click()
  }
}
