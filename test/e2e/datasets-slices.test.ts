// Cases from a dataset file and slices by tag, through real Vitest and digline processes: a dataset
// edited between the kill and the resume is refused by name; a slice is billed, filed as a slice
// and never promoted.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { journalBytes, makeProject } from '../helpers/project.js'
import { callLines, killAfterCalls } from '../helpers/kill.js'

const env = { DIGLINE_CREATED_AT: '2026-11-29T22:39:56.123456Z' }

function suiteFile(dataset: string, delayMs: number): string {
  return `import { evalSuite, dataset, scorers } from 'digline'
import { appendFileSync } from 'node:fs'

evalSuite({
  name: 'tickets',
  cases: await dataset(${JSON.stringify(dataset)}),
  target: async (input, ctx) => {
    appendFileSync('calls.log', ctx.caseId + '\\n')
    await new Promise((r) => setTimeout(r, ${delayMs}))
    return String(input).toUpperCase()
  },
  scorers: [scorers.exact()],
  concurrency: 2,
})
`
}

const csvRows = (n: number) =>
  ['id,input,expected,tags', ...Array.from({ length: n }, (_, i) => `t${i},"ticket ${i}, urgent","TICKET ${i}, URGENT",${i % 3 === 0 ? '"billing,eu"' : 'support'}`)].join('\n')

test('a dataset edited between the kill and the resume is refused by its file name; nothing is called, the journal is kept', async () => {
  const project = makeProject({ 'evals/tickets.eval.ts': suiteFile('data/tickets.csv', 15), 'data/tickets.csv': `${csvRows(60)}\n` })
  await killAfterCalls(project, 10, env)
  project.write('data/tickets.csv', `${csvRows(60).replace('"TICKET 59, URGENT"', '"TICKET 59, LATER"')}\n`)
  const before = journalBytes(project, 'tickets')
  const calls = callLines(project).length
  const result = await project.digline(['run', '--resume'])
  const out = result.stdout + result.stderr
  expect(result.code, out).toBe(64)
  expect(out).toContain('ResumeMismatchError')
  expect(out).toMatch(/dataset data\/tickets\.csv changed \(sha256 [0-9a-f]{12}… in the journal, [0-9a-f]{12}… now\)/)
  expect(callLines(project).length).toBe(calls)
  expect(journalBytes(project, 'tickets')).toEqual(before)
})

test('digline run --tag runs a slice: billed for its cases only, filed marked as a slice with tags and metadata per case, refused by promote', async () => {
  const rows = Array.from({ length: 9 }, (_, i) =>
    JSON.stringify({ id: `j${i}`, input: `q${i}`, expected: `Q${i}`, ...(i % 3 === 0 ? { tags: ['billing'] } : {}), metadata: { n: i } }),
  )
  const project = makeProject({ 'evals/tickets.eval.ts': suiteFile('data/t.jsonl', 0), 'data/t.jsonl': `${rows.join('\n')}\n` })
  const result = await project.digline(['run', '--tag', 'billing'], env)
  const out = result.stdout + result.stderr
  expect(result.code, out).toBe(0)
  expect(out).toContain(
    'digline tickets: a slice (tag billing) of 3 of 9 cases, filed as a slice of the suite and never its baseline; 3 of 3 cases × 1 sample = 3 calls to the target',
  )
  expect(callLines(project).sort()).toEqual(['j0', 'j3', 'j6'])
  expect(out).toContain('(a slice is never promoted; to make a baseline: digline run --suite tickets, without --tag, then promote that run)')
  const [file] = project.runFiles('acme', 'tickets')
  const doc = JSON.parse(readFileSync(join(project.dir, '.digline', 'acme', 'runs', 'tickets', file!), 'utf8'))
  expect(doc.slice).toEqual({ tags: ['billing'], suite_cases: 9 })
  expect(Object.keys(doc.datasets)).toEqual(['data/t.jsonl'])
  expect(doc.results.map((r: { case_id: string; tags: string[]; metadata: unknown }) => [r.case_id, r.tags, r.metadata])).toEqual([
    ['j0', ['billing'], { n: 0 }],
    ['j3', ['billing'], { n: 3 }],
    ['j6', ['billing'], { n: 6 }],
  ])
  const promote = await project.digline(['promote', '--suite', 'tickets', '--run', file!.replace(/\.json$/, '')])
  expect(promote.code, promote.stdout + promote.stderr).toBe(64)
  expect(promote.stderr).toContain('SliceNotPromotableError')
  expect(promote.stderr).toContain('next: digline run --suite tickets (the whole suite, no --tag)')

  const none = await project.digline(['run', '--tag', 'nobody'])
  expect(none.code, none.stdout + none.stderr).toBe(64)
  expect(none.stdout).toContain('no case of any suite in this launch carries the tag nobody, so nothing was run or filed')
  expect(callLines(project)).toHaveLength(3)
  expect(project.runFiles('acme', 'tickets')).toHaveLength(1)
})
