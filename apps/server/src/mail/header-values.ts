/**
 * Values that go into a message's headers. nodemailer encodes them, and these checks come first
 * so that no name, subject or address can ever add a header or a recipient
 * (docs/product/mail.md "Safety").
 */

// One plain address: no display name, list separator, angle bracket, quote, space or control.
const addressPart = String.raw`[^\s\u0000-\u001f\u007f@<>,;:"()[\]\\]+`
const singleAddress = new RegExp(`^${addressPart}@${addressPart}\\.${addressPart}$`)

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
const controlCharacters = /[\u0000-\u001f\u007f]+/g

/** True for exactly one email address; anything that could name a second recipient is false. */
export function isSingleAddress(value: string): boolean {
  return value.length <= 254 && singleAddress.test(value)
}

/** A header text (a subject) on one line: line breaks and other control characters become spaces. */
export function headerText(value: string): string {
  return value.replace(controlCharacters, ' ').trim()
}
