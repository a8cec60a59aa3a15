// `digline mcp` as an agent meets it: the installed bin in a temp project, the SDK's own Client over
// stdio, a target that counts its calls in a file. One project and one server serve the file's tests
// in turn; a launching test goes on from the state its previous step left instead of making it
// again, and the disconnect test starts a server of its own to leave (ADR 0495).
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { openStore } from '../../src/store/open-store.js'
import { createdAtNow } from '../../src/suite/keys.js'
import { connect, textOf, type Connected } from '../helpers/mcp-client.js'
import { promoteFirst } from '../helpers/make-run.js'
import { countingSuite, installRoot, makeProject, type Project } from '../helpers/project.js'
import { pendingRowsOf } from '../e2e/store-reads.js'

const TOOLS = ['compare_run', 'compare_runs', 'list_reviews', 'list_runs', 'list_suites', 'pending', 'plan_run', 'resume_run', 'run_suite', 'show_run']

/** A plain Vitest test beside the suites, with a side effect: MCP's launches must never run it. */
const PLAIN_TEST = `import { test } from 'vitest'
import { appendFileSync } from 'node:fs'
test('a test of the project with a side effect', () => appendFileSync('side.log', 'ran\\n'))
`

/** A test that launches Vitest several times, each launch a plan and a run: under load it outlasts the default 120 s. */
const LAUNCHES_TIMEOUT = 300_000

const open: Connected[] = []
afterEach(async () => {
  for (const c of open.splice(0)) await c.client.close().catch(() => undefined)
})

async function serve(project: Project, args: string[] = []): Promise<Connected> {
  const connected = await connect(project, args, { CALLS_FILE: join(project.dir, 'calls.log') })
  open.push(connected)
  return connected
}

function callsMade(project: Project): number {
  const path = join(project.dir, 'calls.log')
  return existsSync(path)
    ? readFileSync(path, 'utf8')
        .split('\n')
        .filter((l) => l !== '').length
    : 0
}

// One project and one server for the file, started with --root from elsewhere: a server serves the
// project it was started in, and reads its config and suite files afresh at every call. Each test
// writes the suite files it needs; the tests that need its store empty come first.
describe('one server for the file', () => {
  let project: Project
  let mcp: Connected
  beforeAll(async () => {
    project = makeProject()
    mcp = await connect(project, ['--root', project.dir], { CALLS_FILE: join(project.dir, 'calls.log') }, installRoot())
  })
  afterAll(async () => {
    await mcp.client.close().catch(() => undefined)
  })

  /** The project's suite files are these alone, and no call has been counted. */
  function suites(files: Record<string, string>): void {
    rmSync(join(project.dir, 'evals'), { recursive: true, force: true })
    rmSync(join(project.dir, 'calls.log'), { force: true })
    for (const [path, text] of Object.entries(files)) project.write(path, text)
  }

  test('the tools are the eval loop and nothing that deletes, promotes, retires or re-judges', async () => {
    const { tools } = await mcp.client.listTools()
    const names = tools.map((t) => t.name).sort()
    expect(names).toEqual(TOOLS)
    for (const name of names) expect(name).not.toMatch(/delete|remove|promote|retire|rejudge|replay/)
    for (const tool of tools) expect(tool.inputSchema.type).toBe('object')
  })

  test('--root serves a project from elsewhere; a root that is not a directory is refused', async () => {
    const suites = await mcp.call('list_suites', {})
    expect(suites.structuredContent, textOf(suites)).toMatchObject({ tenant: 'acme', store: join(project.dir, '.digline'), suites: [] })
    const refused = await project.digline(['mcp', '--root', 'no-such-dir'])
    expect(refused.code).toBe(64)
    expect(refused.stderr).toContain('UsageError: digline mcp: --root "no-such-dir" was refused: it is not a directory')
  })

  test('a malformed argument and a refusal are tool errors with the CLI’s words, and the server keeps answering', async () => {
    const malformed = await mcp.call('list_runs', { suite: 42 })
    expect(malformed.isError).toBe(true)
    expect(textOf(malformed)).toMatch(/suite/)

    const unsafe = await mcp.call('list_runs', { suite: '../etc' })
    expect(unsafe.isError).toBe(true)
    expect(textOf(unsafe)).toContain('PathRefusedError')
    expect(textOf(unsafe)).toContain('refused the suite "../etc": it is not one safe path segment')

    const missing = await mcp.call('compare_run', { suite: 'nope', run: 'latest' })
    expect(missing.isError).toBe(true)
    const cli = await project.digline(['compare', '--suite', 'nope', '--run', 'latest'])
    expect(cli.code).toBe(64)
    expect(textOf(missing)).toMatch(/^refused RunNotFoundError: /)
    expect(cli.stderr.trim()).toBe(textOf(missing).trim())

    const suites = await mcp.call('list_suites', {})
    expect(suites.isError, textOf(suites)).toBeFalsy()
    expect(suites.structuredContent).toMatchObject({ tenant: 'acme', suites: [] })
  })
  test(
    'a suite that cannot start makes the plan a tool error, and nothing is called; a suite whose bill changed between the plan and the run is refused by its worker before any call (BillChangedError)',
    { timeout: LAUNCHES_TIMEOUT },
    async () => {
      suites({
        'evals/good.eval.ts': countingSuite({ name: 'good', cases: 3 }).replace('{ length: 3 }', '{ length: process.env.DIGLINE_PROGRESS ? 4 : 3 }'),
        'evals/bad.eval.ts': countingSuite({ name: 'bad', cases: 3, samples: 0 }),
      })
      const plan = await mcp.call('plan_run', {})
      expect(plan.isError).toBe(true)
      expect(textOf(plan)).toContain('refused LaunchNotPlannedError: vitest ended with exit 64 when asked for the bill')
      expect(textOf(plan)).toContain('(1 suite(s) announced one)')
      expect(textOf(plan)).toContain('suite "bad" was refused: samples must be a whole number')
      const ran = await mcp.call('run_suite', { acknowledgedCalls: 3 })
      expect(textOf(ran)).toContain('LaunchNotPlannedError')
      expect(callsMade(project)).toBe(0)

      // suite good alone: its plan announces 3 calls, so 3 are acknowledged; its run's workers come to 4
      rmSync(join(project.dir, 'evals/bad.eval.ts'))
      const changed = await mcp.call('run_suite', { acknowledgedCalls: 3 })
      expect(changed.isError, textOf(changed)).toBe(true)
      expect(textOf(changed)).toContain('refused BillChangedError: suite good was refused: its bill is now 4 call(s) to the target, and 3 were acknowledged')
      expect(callsMade(project)).toBe(0)
      expect(project.runFiles('acme', 'good')).toEqual([])
    },
  )

  // issue 23 item 4 too: planning and running through MCP touch digline suites only (the plain test file beside the suite never runs).
  // The run it plans and runs is a regression of the promoted baseline, which compare_run then explains.
  test(
    'plan_run announces the bill without a call; run_suite refuses another number and runs nothing, then makes exactly the calls acknowledged; no other test of the project runs; compare_run explains the regression: the flipped cases with their reasons; a regressed run is not proposed, and the command to accept it on purpose is named',
    { timeout: LAUNCHES_TIMEOUT },
    async () => {
      const triage = { name: 'triage', cases: 20, samples: 3, thresholds: '{ passRate: 0.5 }' }
      suites({ 'evals/triage.eval.ts': countingSuite(triage), 'evals/plain.eval.ts': PLAIN_TEST })
      // the baseline: one run of the suite alone (its calls counted apart), promoted through the store (promote is no tool)
      const first = await project.vitest(['evals/triage.eval.ts'], { CALLS_FILE: join(project.dir, 'baseline-calls.log') })
      expect(first.code, first.stdout + first.stderr).toBe(0)
      const firstKey = project.runFiles('acme', 'triage')[0]!.replace(/\.json$/, '')
      const store = openStore({ store: join(project.dir, '.digline') })
      try {
        await promoteFirst(store, await store.readRun('acme', 'triage', firstKey), createdAtNow())
      } finally {
        await store.close()
      }
      project.write('evals/triage.eval.ts', countingSuite({ ...triage, answer: "i % 3 === 1 && i < 18 ? 'wrong' : 'ok-' + i" }))
      const failing = ['c001', 'c004', 'c007', 'c010', 'c013', 'c016']

      const plan = await mcp.call('plan_run', {})
      expect(plan.isError, textOf(plan)).toBeFalsy()
      expect(plan.structuredContent).toMatchObject({ calls: 60, suites: [{ suite: 'triage', plan: { cases: 20, toCall: 20, samples: 3, calls: 60 } }] })
      expect((plan.structuredContent as { suites: { announcement: string }[] }).suites[0]!.announcement).toContain('20 of 20 cases × 3 samples = 60 calls to the target')
      expect(callsMade(project)).toBe(0)
      expect(existsSync(join(project.dir, 'side.log'))).toBe(false)
      const plannedKey = (plan.structuredContent as { suites: { key: string }[] }).suites[0]!.key

      const wrong = await mcp.call('run_suite', { acknowledgedCalls: 59 })
      expect(wrong.isError).toBe(true)
      expect(textOf(wrong)).toContain('refused BillNotAcknowledgedError: the launch was refused: acknowledgedCalls is 59, but a fresh plan of it announces 60 call(s)')
      expect(callsMade(project)).toBe(0)
      expect(project.runFiles('acme', 'triage')).toEqual([`${firstKey}.json`])

      const progress: { progress: number; total?: number; message?: string }[] = []
      const ran = await mcp.call('run_suite', { suite: 'triage', acknowledgedCalls: 60 }, { onprogress: (p) => progress.push(p) })
      expect(ran.isError, textOf(ran) + mcp.stderr()).toBeFalsy()
      expect(callsMade(project)).toBe(60)
      expect(ran.structuredContent).toMatchObject({ exit_code: 1, bill: { calls: 60 }, outcomes: [{ suite: 'triage', status: 'regressed', aggregates: { passed: 14 } }] })
      expect(progress.map((p) => p.progress)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1))
      expect(progress.every((p) => p.total === 20)).toBe(true)
      const ids = Array.from({ length: 20 }, (_, i) => `c${String(i).padStart(3, '0')}`)
      expect(progress.map((p) => p.message).sort()).toEqual(ids.map((id) => `triage › ${id}: ${failing.includes(id) ? 'fail' : 'pass'}`))
      // issue 23 item 20: the key the plan named is the key the acknowledged run files under.
      expect(ran.structuredContent).toMatchObject({ outcomes: [{ key: plannedKey }] })
      expect(project.runFiles('acme', 'triage')).toEqual([`${firstKey}.json`, `${plannedKey}.json`])
      expect(existsSync(join(project.dir, 'side.log'))).toBe(false)

      const compared = await mcp.call('compare_run', { suite: 'triage', run: 'latest' })
      expect(compared.isError, textOf(compared)).toBeFalsy()
      const explained = compared.structuredContent as {
        key: string
        status: string
        exit_code: number
        flipped: { case_id: string; direction: string; reason: string | null }[]
        promotion: { command: string | null; why?: string }
      }
      expect(explained).toMatchObject({ key: plannedKey, status: 'regressed', exit_code: 1, target_config_moved: null, observed_model_moved: null })
      expect(explained.flipped.map((f) => f.case_id)).toEqual(failing)
      expect(explained.flipped.every((f) => f.direction === 'pass_to_fail' && typeof f.reason === 'string' && f.reason.length > 0)).toBe(true)
      expect(explained.promotion.command).toBeNull()
      expect(explained.promotion.why).toContain(`digline promote --suite triage --run ${plannedKey} --replacing ${firstKey}`)
      // proposed, never performed
      expect(JSON.parse(project.read('.digline/acme/baselines/triage.json')).promoted_from).toBe(firstKey)
    },
  )

  // The run a client left (its own server went with it) is the killed run resume_run finishes, as an agent reconnects.
  test(
    'a client that disconnects mid-run leaves the run resumable: pending shows it, and resume_run finishes it with exactly the calls plan_run announced, and refuses another number',
    { timeout: LAUNCHES_TIMEOUT },
    async () => {
      suites({ 'evals/slow.eval.ts': countingSuite({ name: 'slow', cases: 12, samples: 2, concurrency: 1, delayMs: 400 }) })
      const leaving = await serve(project)

      let settled = 0
      let disconnected!: () => void
      const twoSettled = new Promise<void>((resolve) => (disconnected = resolve))
      const running = leaving
        .call('run_suite', { acknowledgedCalls: 24 }, { onprogress: (p) => ((settled = p.progress), p.progress >= 2 && disconnected()) })
        .catch((e: unknown) => e)
      await twoSettled
      const server = leaving.transport.pid!
      await leaving.client.close()
      await running
      expect(settled).toBeGreaterThanOrEqual(2)
      expect(settled).toBeLessThan(12)

      // the server went away on its own, after stopping vitest
      await expect.poll(() => alive(server), { timeout: 60_000, interval: 250 }).toBe(false)
      expect(leaving.stderr()).not.toMatch(/EPIPE|Uncaught|internal error/)
      // what `digline pending --json` lists, read in this process (ADR 0460): polled, it started a process a poll
      const store = join(project.dir, '.digline')
      let rows: { key: string; journaled: number; finished: boolean }[] = []
      await expect
        .poll(
          async () => {
            rows = await pendingRowsOf(store, 'acme', 'slow')
            return rows.length
          },
          { timeout: 60_000, interval: 500 },
        )
        .toBe(1)
      expect(rows[0]!.finished).toBe(false)
      expect(rows[0]!.journaled).toBeGreaterThanOrEqual(2)
      expect(project.runFiles('acme', 'slow')).toEqual([])

      // vitest's workers may still be letting go of the journal's lease: wait for it here rather than by refused plans
      await expect.poll(async () => (await pendingRowsOf(store, 'acme', 'slow'))[0]?.live ?? null, { timeout: 20_000, interval: 250 }).toBeNull()
      const pending = await mcp.call('pending', { suite: 'slow' })
      const [row] = (pending.structuredContent as { pending: { key: string; journaled: number }[] }).pending
      expect(row, textOf(pending)).toMatchObject({ key: rows[0]!.key, journaled: rows[0]!.journaled })
      const left = 12 - row!.journaled

      let plan = await mcp.call('plan_run', { resume: true, key: row!.key })
      for (let i = 0; i < 20 && plan.isError === true && textOf(plan).includes('LiveRunError'); i++) {
        await new Promise((r) => setTimeout(r, 1000))
        plan = await mcp.call('plan_run', { resume: true, key: row!.key })
      }
      expect(plan.isError, textOf(plan)).toBeFalsy()
      expect(plan.structuredContent).toMatchObject({ calls: left * 2, suites: [{ suite: 'slow', key: row!.key, plan: { resumed: true, reused: row!.journaled, toCall: left } }] })
      expect((plan.structuredContent as { suites: { announcement: string }[] }).suites[0]!.announcement).toContain(`${row!.journaled} case(s) already judged`)

      const before = callsMade(project)
      const wrong = await mcp.call('resume_run', { key: row!.key, acknowledgedCalls: left * 2 + 1 })
      expect(textOf(wrong)).toContain('refused BillNotAcknowledgedError')
      expect(callsMade(project)).toBe(before)

      const progress: number[] = []
      const resumed = await mcp.call('resume_run', { key: row!.key, acknowledgedCalls: left * 2 }, { onprogress: (p) => progress.push(p.progress) })
      expect(resumed.structuredContent, textOf(resumed) + mcp.stderr()).toMatchObject({ exit_code: 0, outcomes: [{ suite: 'slow', key: row!.key, status: 'held' }] })
      expect(callsMade(project) - before).toBe(left * 2)
      // the cases judged in the killed leg are reported first, then the ones called now
      expect(progress).toEqual(Array.from({ length: 12 }, (_, i) => i + 1))
      expect(project.runFiles('acme', 'slow')).toEqual([`${row!.key}.json`])
    },
  )
})

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
