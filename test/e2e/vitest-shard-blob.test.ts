// Vitest's own machinery beside digline's shards: `vitest --shard` splits whole files as it always
// did, and Vitest's blob reporter replayed by `vitest --merge-reports` prints each suite's outcome
// through digline's reporter, with the launch's exit code, and writes nothing a second time.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { expect, test } from 'vitest'
import { callLines } from '../helpers/kill.js'
import { countingSuite, makeProject } from '../helpers/project.js'

/** Every file under dir with its bytes, so a second write (even of the same bytes) to a new file shows, and mtimes for rewrites. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name)
      const stats = statSync(path)
      if (stats.isDirectory()) walk(path)
      else out[relative(dir, path)] = `${stats.mtimeMs} ${readFileSync(path, 'base64')}`
    }
  }
  walk(dir)
  return out
}

test('vitest --shard with the blob reporter, then --merge-reports: the suites are printed, nothing is written again', async () => {
  const project = makeProject({
    'evals/alpha.eval.ts': countingSuite({ name: 'alpha', cases: 6 }),
    'evals/beta.eval.ts': countingSuite({ name: 'beta', cases: 6, answer: "i === 2 ? 'no' : 'ok-' + i", thresholds: '{ passRate: 0.9 }' }),
  })
  const env = { DIGLINE_CREATED_AT: '2026-11-29T22:39:56.123456Z' }
  const shards = await Promise.all([1, 2].map((i) => project.vitest([`--shard=${i}/2`, '--reporter=blob', `--outputFile=.vitest-reports/blob-${i}-2.json`], env)))
  // Vitest's --shard gives each process whole files: one suite each, each filed by its own process.
  expect(shards.map((r) => r.code).sort()).toEqual([0, 1])
  expect(project.runFiles('acme', 'alpha')).toHaveLength(1)
  expect(project.runFiles('acme', 'beta')).toHaveLength(1)
  const calls = callLines(project).length
  expect(calls).toBe(12)
  const before = tree(join(project.dir, '.digline'))
  // the directory is named: Vitest 4.1's default is .vitest-reports, Vitest 5's .vitest/blob
  const merged = await project.vitest(['--merge-reports=.vitest-reports'], env)
  const text = merged.stdout + merged.stderr
  expect(merged.code, text).toBe(1)
  expect(text).toContain('digline alpha')
  expect(text).toContain('digline beta')
  expect(text).toContain('digline exit 1')
  expect(callLines(project).length).toBe(calls)
  expect(tree(join(project.dir, '.digline'))).toEqual(before)
})
