// A fresh run under a key that is taken is refused by name before any call (SPEC §7, ADR 0016):
// a pending journal of a stopped launch, the run under the baseline, any run already written.
// Promote is the CLI's main() in-process (ADR 0470); the resume goes through the bin.
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { makeProject, type Project } from '../helpers/project.js'
import { callLines, killAfterCalls, killSuite } from '../helpers/kill.js'
import { inProcess } from './cli-in-process.js'

const env = { DIGLINE_CREATED_AT: '2026-11-29T22:39:56.123456Z' }

function storeBytes(project: Project): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else out[path.slice(project.dir.length)] = createHash('sha256').update(readFileSync(path)).digest('hex')
    }
  }
  walk(join(project.dir, '.digline'))
  return out
}

async function refusedRerun(project: Project, name: string, says: string[]): Promise<void> {
  const before = storeBytes(project)
  const calls = callLines(project).length
  const result = await project.vitest([], env)
  const out = result.stdout + result.stderr
  expect(result.code, out).toBe(64)
  expect(out).toContain(name)
  for (const s of says) expect(out).toContain(s)
  expect(out).not.toContain('JournalLegExistsError')
  expect(callLines(project).length, out).toBe(calls)
  expect(storeBytes(project)).toEqual(before)
}

// One project: the killed launch leaves a pending journal; its resume writes the run under that key,
// which the next tests refuse a rerun over, then promote it to the baseline (ADR 0525).
const project = makeProject({ 'evals/killed.eval.ts': killSuite({ concurrency: 2 }) })
let key = ''

test('a rerun with the DIGLINE_CREATED_AT of a killed launch names the pending journal and the resume', async () => {
  await killAfterCalls(project, 20, env)
  key = readdirSync(join(project.dir, '.digline', 'acme', 'runs', 'killed', '.pending'))[0]!.split('.')[0]!
  await refusedRerun(project, 'PendingRunUnderKeyError', [`digline run --resume ${key}`, 'another DIGLINE_CREATED_AT'])
  const resumed = await project.digline(['run', '--resume', key])
  expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0)
})

test('a rerun under the key of a written run is refused; under the baseline run too', async () => {
  // the resumed run is written under the key of the killed launch
  expect(project.runFiles('acme', 'killed')).toEqual([`${key}.json`])
  await refusedRerun(project, 'RunExistsError', [`run ${key} is already written`, 'another DIGLINE_CREATED_AT'])
  const promoted = await inProcess(project, ['promote', '--suite', 'killed', '--run', key])
  expect(promoted.code, promoted.stdout + promoted.stderr).toBe(0)
  await refusedRerun(project, 'BaselineRunOverwriteError', [`key ${key}`, 'baseline was promoted from'])
  // another created_at is a fresh key and runs
  expect((await project.vitest([], { DIGLINE_CREATED_AT: '2026-11-30T00:00:00.000001Z' })).code).toBe(0)
})
