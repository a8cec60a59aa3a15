import { evalSuite, scorers } from 'digline'
import { route, RULES } from '../src/router.js'

const tickets: [string, string][] = [
  ['My invoice shows the wrong amount', 'billing'],
  ['I was charged twice this month', 'billing'],
  ['Please update the card on file', 'billing'],
  ['When will I get my refund?', 'billing'],
  ['I returned the shoes, where is my money back?', 'billing'],
  ['The refund never arrived', 'billing'],
  ['You refunded the wrong order', 'billing'],
  ['I cannot log in since yesterday', 'account'],
  ['How do I change my email address?', 'account'],
  ['My username is misspelled', 'account'],
  ['I forgot my password', 'account'],
  ['I am locked out of my account', 'account'],
  ['The two-factor code never comes', 'account'],
  ['Reset my password please', 'account'],
  ['My parcel is late', 'shipping'],
  ['The package arrived damaged', 'shipping'],
  ['The courier left it at the wrong door', 'shipping'],
  ['The tracking link does not work', 'shipping'],
  ['Can I change the delivery address?', 'shipping'],
  ['Do you have this jacket in blue?', 'other'],
  ['What are your opening hours?', 'other'],
  ['I love the new design', 'other'],
  ['Can I order by phone?', 'other'],
  ['Is there a student discount?', 'other'],
]

const router = (version: keyof typeof RULES) => ({
  config: { rules: version },
  ask: (ticket: string) => ({ output: route(RULES[version], ticket), model: `router-${version}` }),
})

evalSuite({
  name: 'router',
  cases: tickets.map(([input, expected], i) => ({ id: `t${String(i + 1).padStart(2, '0')}`, input, expected })),
  // One launch asks every ticket of each version; each is filed as router.<variant>.
  variants: { v1: router('v1'), 'v1-copy': router('v1-copy'), v2: router('v2') },
  scorers: [scorers.exact()],
  concurrency: 4,
})
