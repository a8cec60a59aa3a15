// The claims or statements a RAG judge named, as a reason may show them: quoted only when answers
// are recorded (a claim restates the answer or the expected value), and then only the first few.
import { preview } from './reason-text.js'

const SHOWN = 3

export function listed(label: string, items: readonly string[], recorded: boolean | undefined): string {
  if (items.length === 0) return ''
  if (recorded !== true) return `; the ${label} are not quoted, as answers are not recorded`
  const shown = items.slice(0, SHOWN).map((item) => preview(item, 100))
  const more = items.length > SHOWN ? ` and ${items.length - SHOWN} more` : ''
  return `; ${label}: ${shown.join(', ')}${more}`
}
