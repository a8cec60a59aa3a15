// Cases really run concurrently under `vitest run`, and never more than `concurrency` at once.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { makeProject } from '../helpers/project.js'

const SUITE = `import { evalSuite, scorers } from 'digline'
import { appendFileSync } from 'node:fs'

let inFlight = 0
evalSuite({
  name: 'slow',
  cases: Array.from({ length: 200 }, (_, i) => ({ id: 'c' + i, input: i, expected: i })),
  target: async (i) => {
    inFlight++
    const start = performance.timeOrigin + performance.now()
    appendFileSync('inflight.log', inFlight + '\\n')
    await new Promise((r) => setTimeout(r, 50))
    inFlight--
    appendFileSync('spans.log', start + ' ' + (performance.timeOrigin + performance.now()) + '\\n')
    return i
  },
  scorers: [scorers.exact()],
  concurrency: 20,
})
`

test('200 cases × 50 ms at concurrency 20: never more than 20 in flight, far under the serial time', async () => {
  const project = makeProject({ 'evals/slow.eval.ts': SUITE })
  const result = await project.vitest()
  expect(result.code, result.stdout + result.stderr).toBe(0)
  const inflight = readFileSync(join(project.dir, 'inflight.log'), 'utf8').trim().split('\n').map(Number)
  expect(inflight).toHaveLength(200)
  expect(Math.max(...inflight)).toBe(20)
  const spans = readFileSync(join(project.dir, 'spans.log'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split(' ').map(Number) as [number, number])
  const wall = Math.max(...spans.map((s) => s[1])) - Math.min(...spans.map((s) => s[0]))
  const serial = spans.reduce((sum, [a, b]) => sum + (b - a), 0)
  const ratio = wall / serial
  console.log(`concurrency: wall ${wall.toFixed(0)} ms, serial ${serial.toFixed(0)} ms, ratio ${ratio.toFixed(3)} (ideal 0.05)`)
  expect(ratio).toBeLessThan(0.2)
})
