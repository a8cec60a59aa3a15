// The system under test: a ticket router that sends a support ticket to a team by its keywords. Three
// versions of its rule table are the variants: `v1`, `v1-copy` (the same table again: an A/A pair)
// and `v2`, which adds the rules v1 lacks for refunds and passwords.
export type Team = 'billing' | 'account' | 'shipping' | 'other'

type Rules = readonly (readonly [RegExp, Team])[]

const V1: Rules = [
  [/\b(invoice|charge|charged|card)\b/i, 'billing'],
  [/\b(login|log in|username|email address)\b/i, 'account'],
  [/\b(parcel|package|delivery|courier|tracking)\b/i, 'shipping'],
]

const V2: Rules = [...V1, [/\b(refund|refunded|money back)\b/i, 'billing'], [/\b(password|locked out|two-factor)\b/i, 'account']]

export const RULES = { v1: V1, 'v1-copy': V1, v2: V2 } as const

export function route(rules: Rules, ticket: string): Team {
  for (const [pattern, team] of rules) if (pattern.test(ticket)) return team
  return 'other'
}
