// The resume refusal table in process (moved from test/e2e/resume.test.ts, which keeps one row per
// door): a change to the suite, its artifacts, its environment or its git commit between the killed
// leg and the resume names the header field that moved, before any call. Each row prepares the run
// as the killed launch did, then prepares its resume with that one thing changed.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { prepareRun, type RunContext } from '../../../src/host/launch/prepare-run.js'
import { journalHeaderFor } from '../../../src/host/launch/resume.js'
import { exact } from '../../../src/scorers/exact.js'
import type { Pending } from '../../../src/store/journal.js'
import { resolveSuite } from '../../../src/suite/resolve-suite.js'

const CREATED_AT = '2026-11-29T22:39:56.123456Z'

interface Variant {
  expected?: (i: number) => number
  model?: string
  trim?: boolean
  recordResponses?: boolean
  samples?: number
}

function suiteOf(v: Variant = {}) {
  return resolveSuite({
    name: 'killed',
    cases: Array.from({ length: 10 }, (_, i) => ({ id: `c${i}`, input: i, expected: (v.expected ?? ((n) => (n % 7 === 0 ? -1 : n)))(i) })),
    target: { config: { model: v.model ?? 'det-v1' }, ask: (input: unknown) => Promise.resolve({ output: input, model: 'det-v1-2026' }) },
    scorers: [v.trim ? exact({ trim: true }) : exact()],
    samples: v.samples ?? 1,
    artifacts: ['prompt.txt'],
    ...(v.recordResponses ? { recordResponses: true } : {}),
  })
}

function git(dir: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: dir })
}

/** A project root with prompt.txt (and git history, for the git_commit row), and the killed leg's journal. */
async function killedLeg(withGit = false): Promise<{ ctx: RunContext; pending: Pending }> {
  const projectRoot = mkdtempSync(join(tmpdir(), 'digline-resume-table-'))
  writeFileSync(join(projectRoot, 'prompt.txt'), 'v1')
  if (withGit) {
    git(projectRoot, 'init', '-q')
    git(projectRoot, 'add', '-A')
    git(projectRoot, 'commit', '-qm', 'one')
  }
  const ctx: RunContext = { tenant: 'acme', environment: 'local', storeRoot: join(projectRoot, '.digline'), projectRoot, env: { DIGLINE_CREATED_AT: CREATED_AT } }
  const prepared = await prepareRun(suiteOf(), ctx)
  const opening = journalHeaderFor(prepared, CREATED_AT)
  const pending: Pending = {
    tenant: 'acme',
    suite: 'killed',
    key: prepared.key,
    header: { ...opening, leg: 1 },
    refusal: undefined,
    legs: [1],
    leases: [],
    declared: opening.declared,
    done: new Map(),
    causes: new Map(),
    observed: {} as Pending['observed'],
    finished: false,
  }
  return { ctx, pending }
}

const rows: [field: string, change: (ctx: RunContext) => { suite?: Variant; ctx?: Partial<RunContext> }][] = [
  ['environment', () => ({ ctx: { environment: 'staging' } })],
  ['cases_digest', () => ({ suite: { expected: (i) => (i % 7 === 0 ? -2 : i) } })],
  ['artifacts', (ctx) => (writeFileSync(join(ctx.projectRoot, 'prompt.txt'), 'v2'), {})],
  ['target_config', () => ({ suite: { model: 'det-v2' } })],
  ['judge_config', () => ({ suite: { trim: true } })],
  ['record_responses', () => ({ suite: { recordResponses: true } })],
  ['config_hash', () => ({ suite: { samples: 2 } })],
  [
    'git_commit',
    (ctx) => {
      writeFileSync(join(ctx.projectRoot, 'NOTES.md'), 'later\n')
      git(ctx.projectRoot, 'add', '-A')
      git(ctx.projectRoot, 'commit', '-qm', 'two')
      return {}
    },
  ],
]

test.each(rows)('%s: the resume is refused naming the field', async (field, change) => {
  const { ctx, pending } = await killedLeg(field === 'git_commit')
  const changed = change(ctx)
  await expect(prepareRun(suiteOf(changed.suite), { ...ctx, ...changed.ctx }, undefined, { pending, keepErrors: false })).rejects.toMatchObject({
    name: 'ResumeMismatchError',
    message: expect.stringContaining(`${field} differs`) as unknown,
  })
})

test('nothing changed: the resume is prepared, as leg 2 of the same key, with the per-case digests its journal declared', async () => {
  const { ctx, pending } = await killedLeg(true)
  const resumed = await prepareRun(suiteOf(), ctx, undefined, { pending, keepErrors: false })
  expect(resumed).toMatchObject({ key: pending.key, leg: 2, plan: { resumed: true, toCall: 10 } })
  // The cases hash to the journal's cases_digest, so each case is not hashed again.
  expect(resumed.caseDigests).toBe(pending.declared!.digests)
})

test('changed cases are named from digests computed again, not from the ones the journal declared', async () => {
  const { ctx, pending } = await killedLeg()
  const changed = suiteOf({ expected: (i) => (i % 7 === 0 ? -2 : i) })
  const refusal = await prepareRun(changed, ctx, undefined, { pending, keepErrors: false }).then(
    () => undefined,
    (error: unknown) => error as Error,
  )
  expect(refusal?.name).toBe('ResumeMismatchError')
  expect(refusal?.message).toContain('the cases changed: changed "c0", "c7"')
})
