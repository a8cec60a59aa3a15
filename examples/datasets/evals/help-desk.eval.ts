// The help desk's answers, asked from a CSV file: one case per row, `id`, `input` and `expected`
// columns, `tags` split on commas, the other columns (here `source`) in each case's metadata.
// `npx digline run --tag billing` runs only the billing questions, filed as a slice of the suite.
import { dataset, evalSuite, scorers } from 'digline'
import { answer } from '../src/help-desk.js'

evalSuite({
  name: 'help-desk',
  cases: await dataset('data/questions.csv'),
  target: { config: { rules: 'v1' }, ask: (question: string) => ({ output: answer(question) }) },
  scorers: [scorers.includes({ caseInsensitive: true })],
  thresholds: { passRate: 0.7 },
})
