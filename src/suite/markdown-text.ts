// Text that a suite, a target or a judge wrote, as a markdown page (the job summary, a pull-request
// comment, a check run's summary) may show it: the controls escaped by printable (ADR 0153), one
// line, and the characters that would start markup written as literals. A reason cannot open an
// HTML tag or an image, close a link, leave a code span, mention a person (`@team`), cross-reference
// an issue (`#12`) or start a table cell (ADR 0250).
import { printable } from './printable-text.js'

// A backslash already before punctuation would escape it (or un-escape ours): it is doubled first.
const BACKSLASH_BEFORE_PUNCTUATION = /\\(?=[!-/:-@[-`{-~])/g
// a `]` starts a link or an image only right before `(` or `[` (a line never starts inside this text,
// so no link definition can be made)
const MARKUP = /[`*<>~@#&|]|\](?=[([])/g

/** `text` as one line of literal markdown: controls escaped, newlines as spaces, markup characters backslashed. */
export function markdownText(text: string): string {
  return printable(text).replace(/\n/g, ' ').replace(BACKSLASH_BEFORE_PUNCTUATION, '\\\\').replace(MARKUP, '\\$&')
}
