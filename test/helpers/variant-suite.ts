// A suite with three variants of a deterministic target whose differences are known, for the variant tests.

/**
 * 60 cases; `weak` answers right when i % 10 < 5, `strong` when i % 10 < 9, `twin` is `weak` again
 * (an A/A pair). WEAK_WORSE=1 makes `weak` (and only it) also miss every case with i % 10 of 3 or 4.
 */
export function pickSuite(opts: { concurrency?: number; delayMs?: number; extra?: string } = {}): string {
  return `import { evalSuite, scorers } from 'digline'
import { appendFileSync } from 'node:fs'

let inFlight = 0
function variant(name, right) {
  return {
    config: { model: name },
    async ask(i, ctx) {
      inFlight++
      appendFileSync('calls.log', name + ':' + ctx.caseId + ':' + inFlight + '\\n')
      await new Promise((r) => setTimeout(r, ${opts.delayMs ?? 2} + (i % 3)))
      inFlight--
      return { output: right(i) ? i : -1, model: name + '-2026' }
    },
  }
}
const weak = (i) => i % 10 < 5 && !(process.env.WEAK_WORSE === '1' && i % 10 >= 3)

evalSuite({
  name: 'pick',
  cases: Array.from({ length: 60 }, (_, i) => ({ id: 'c' + String(i).padStart(2, '0'), input: i, expected: i })),
  variants: {
    weak: variant('weak', weak),
    strong: variant('strong', (i) => i % 10 < 9),
    twin: variant('twin', (i) => i % 10 < 5),
  },
  scorers: [scorers.exact()],
  concurrency: ${opts.concurrency ?? 2},
  ${opts.extra ?? ''}
})
`
}
