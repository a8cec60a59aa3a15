// What the fault tests of the team store share: a deterministic suite whose target counts its calls
// (and can hold, or signal the test right before it returns), the reference document of an
// uninterrupted run on the file store, and what the database holds of a run and its journal.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'vitest'
import { decodeLine } from '../../../../src/store/journal-format.js'
import type { Pending } from '../../../../src/store/journal.js'
import { PostgresStore } from '../../../../src/store/postgres/store.js'
import type { TestDatabase } from '../../../helpers/postgres.js'
import { defaultConfig, makeProject } from '../../../helpers/project.js'
import { sha256 } from './machines.js'

export const TENANT = 'acme'
export const CASES = 100
export const CREATED_AT = '2026-12-01T07:30:00.000001Z'

/**
 * A suite of CASES cases. The target appends `caseId:sample` to calls.log when called; cases from
 * `holdFrom` on wait while a file `hold` exists in the working directory; with RETURNS_TO set, it
 * appends to returns.log and sends SIGUSR2 to that pid right before it returns. None of it changes
 * the run document.
 */
export function faultSuite(opts: { name: string; concurrency: number; samples?: number; delayMs?: number; holdFrom?: number }): string {
  return `import { evalSuite, scorers } from 'digline'
import { appendFileSync, existsSync } from 'node:fs'

evalSuite({
  name: ${JSON.stringify(opts.name)},
  cases: Array.from({ length: ${CASES} }, (_, i) => ({ id: 'c' + String(i).padStart(3, '0'), input: i, expected: i % 7 === 0 ? -1 : i })),
  target: {
    config: { model: 'det-v1' },
    async ask(i, ctx) {
      appendFileSync('calls.log', ctx.caseId + ':' + ctx.sample + '\\n')
      await new Promise((r) => setTimeout(r, ${opts.delayMs ?? 8} + (i % 5)))
      while (i >= ${opts.holdFrom ?? CASES} && existsSync('hold')) await new Promise((r) => setTimeout(r, 20))
      if (process.env.RETURNS_TO !== undefined) {
        appendFileSync('returns.log', ctx.caseId + ':' + ctx.sample + '\\n')
        process.kill(Number(process.env.RETURNS_TO), 'SIGUSR2')
      }
      return { output: i, model: 'det-v1-2026' }
    },
  },
  samples: ${opts.samples ?? 1},
  scorers: [scorers.exact()],
  concurrency: ${opts.concurrency},
})
`
}

/** The files of a project whose store is the team store at `url`. */
export function teamFiles(url: string, suiteFile: string, name: string): Record<string, string> {
  return { 'vitest.config.ts': defaultConfig(TENANT, `, store: ${JSON.stringify(url)}`), [`evals/${name}.eval.ts`]: suiteFile }
}

/** The sha256 of the document an uninterrupted run of the suite writes on the file store with CREATED_AT. */
export async function referenceSha(suiteFile: string, name: string): Promise<string> {
  const project = makeProject({ [`evals/${name}.eval.ts`]: suiteFile })
  const run = await project.vitest([], { DIGLINE_CREATED_AT: CREATED_AT })
  expect(run.code, run.stdout + run.stderr).toBe(0)
  const files = project.runFiles(TENANT, name)
  expect(files).toHaveLength(1)
  return sha256(readFileSync(join(project.dir, '.digline', TENANT, 'runs', name, files[0]!)))
}

/** The sha256 of every run document of the suite in the database, as stored (the bytes `show --json` and `export` give). */
export async function storedShas(db: TestDatabase, suite: string): Promise<string[]> {
  const { rows } = await db.sql('SELECT document FROM digline_runs WHERE tenant = $1 AND suite = $2 ORDER BY key', [TENANT, suite])
  return (rows as { document: string }[]).map((r) => sha256(r.document))
}

/** The case records of the suite's journal rows, by case id, however many legs hold them: a case counted twice shows as 2. */
export async function caseRecordCounts(db: TestDatabase, suite: string, key: string): Promise<Map<string, number>> {
  const { rows } = await db.sql('SELECT line FROM digline_journal_records WHERE tenant = $1 AND suite = $2 AND key = $3 ORDER BY leg, seq', [TENANT, suite, key])
  const counts = new Map<string, number>()
  for (const { line } of rows as { line: string }[]) {
    const decoded = decodeLine(Buffer.from(line, 'utf8'), { tenant: TENANT, suite, key })
    if (!decoded.ok) throw new Error(`a journal record of run ${key} does not read back: ${decoded.why}`)
    if (decoded.record.kind === 'case') counts.set(decoded.record.result.case_id, (counts.get(decoded.record.result.case_id) ?? 0) + 1)
  }
  return counts
}

/** The one pending journal of the suite, as a process of another machine reads it. */
export async function onlyPending(url: string, suite: string): Promise<Pending> {
  const store = new PostgresStore({ url })
  try {
    const all = await store.pending(TENANT, suite)
    expect(all).toHaveLength(1)
    expect(all[0]!.refusal).toBeUndefined()
    return all[0]!
  } finally {
    await store.end()
  }
}

/** The suite's pending journal, or undefined while there is none. */
export async function pendingOf(url: string, suite: string): Promise<Pending | undefined> {
  const store = new PostgresStore({ url })
  try {
    return (await store.pending(TENANT, suite))[0]
  } finally {
    await store.end()
  }
}

/** Waits until no lease of the suite's pending journal holds any more (the heartbeat stopped, the lease expired); returns how long it took. */
export async function untilLeasesExpired(url: string, suite: string, budgetMs = 90_000): Promise<number> {
  const started = Date.now()
  for (;;) {
    const pending = await onlyPending(url, suite)
    if (pending.leases.every((l) => !l.live)) return Date.now() - started
    if (Date.now() - started > budgetMs) throw new Error(`the leases of run ${pending.key} still held after ${budgetMs} ms: ${JSON.stringify(pending.leases)}`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

export function linesOf(dir: string, file: string): string[] {
  try {
    return readFileSync(join(dir, file), 'utf8')
      .split('\n')
      .filter((l) => l !== '')
  } catch {
    return []
  }
}
