// The system under test: a help desk that answers a question from a fixed table of rules, the first
// rule whose keyword the question contains. Deterministic and offline; two of its rules are wrong on
// purpose, so the suite has failures to show.
const RULES: readonly (readonly [keywords: readonly string[], answer: string])[] = [
  [['refund'], 'You can ask for a refund within 30 days; it is the full amount.'],
  [['charged twice', 'double'], 'We refund the duplicate charge within a week.'],
  [['invoice', 'vat'], 'Every invoice is on the billing page.'],
  [['password'], 'Use "Forgot password": we send a reset link.'],
  [['two-factor', '2fa'], 'Turn it on under security settings.'],
  [['delete my account'], 'We delete the account and its data within 30 days.'],
  [['export'], 'Use the export page; CSV and JSON are offered.'],
  [['down'], 'See the status page for incidents.'],
  [['rate limit'], 'The limits are 600 per minute.'],
]

export function answer(question: string): string {
  const q = question.toLowerCase()
  for (const [keywords, reply] of RULES) if (keywords.some((k) => q.includes(k))) return reply
  return 'Please write to support.'
}
