// `digline mcp` as an agent meets it: the installed bin in a temp project, the SDK's own Client over
// stdio, a target that counts its calls in a file.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { connect, textOf, type Connected } from '../helpers/mcp-client.js'
import { countingSuite, installRoot, makeProject, type Project } from '../helpers/project.js'
import { killAfterCalls } from '../helpers/kill.js'
import { pendingRowsOf } from '../e2e/store-reads.js'

const TOOLS = ['compare_run', 'compare_runs', 'list_reviews', 'list_runs', 'list_suites', 'pending', 'plan_run', 'resume_run', 'run_suite', 'show_run']

/** A plain Vitest test beside the suites, with a side effect: MCP's launches must never run it. */
const PLAIN_TEST = `import { test } from 'vitest'
import { appendFileSync } from 'node:fs'
test('a test of the project with a side effect', () => appendFileSync('side.log', 'ran\\n'))
`

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

test('the tools are the eval loop and nothing that deletes, promotes, retires or re-judges', async () => {
  const mcp = await serve(makeProject())
  const { tools } = await mcp.client.listTools()
  const names = tools.map((t) => t.name).sort()
  expect(names).toEqual(TOOLS)
  for (const name of names) expect(name).not.toMatch(/delete|remove|promote|retire|rejudge|replay/)
  for (const tool of tools) expect(tool.inputSchema.type).toBe('object')
})

test('--root serves a project from elsewhere; a root that is not a directory is refused', async () => {
  const project = makeProject()
  const elsewhere = await connect(project, ['--root', project.dir], {}, installRoot())
  open.push(elsewhere)
  const suites = await elsewhere.call('list_suites', {})
  expect(suites.structuredContent, textOf(suites)).toMatchObject({ tenant: 'acme', store: join(project.dir, '.digline'), suites: [] })
  const refused = await project.digline(['mcp', '--root', 'no-such-dir'])
  expect(refused.code).toBe(64)
  expect(refused.stderr).toContain('UsageError: digline mcp: --root "no-such-dir" was refused: it is not a directory')
})

// issue 23 item 4 too: planning and running through MCP touch digline suites only (the plain test file beside the suite never runs).
test('plan_run announces the bill without a call; run_suite refuses another number and runs nothing, then makes exactly the calls acknowledged; no other test of the project runs', async () => {
  const project = makeProject({ 'evals/triage.eval.ts': countingSuite({ name: 'triage', cases: 5, samples: 3 }), 'evals/plain.eval.ts': PLAIN_TEST })
  const mcp = await serve(project)

  const plan = await mcp.call('plan_run', {})
  expect(plan.isError, textOf(plan)).toBeFalsy()
  expect(plan.structuredContent).toMatchObject({ calls: 15, suites: [{ suite: 'triage', plan: { cases: 5, toCall: 5, samples: 3, calls: 15 } }] })
  expect((plan.structuredContent as { suites: { announcement: string }[] }).suites[0]!.announcement).toContain('5 of 5 cases × 3 samples = 15 calls to the target')
  expect(callsMade(project)).toBe(0)
  expect(existsSync(join(project.dir, 'side.log'))).toBe(false)
  const plannedKey = (plan.structuredContent as { suites: { key: string }[] }).suites[0]!.key

  const wrong = await mcp.call('run_suite', { acknowledgedCalls: 14 })
  expect(wrong.isError).toBe(true)
  expect(textOf(wrong)).toContain('refused BillNotAcknowledgedError: the launch was refused: acknowledgedCalls is 14, but a fresh plan of it announces 15 call(s)')
  expect(callsMade(project)).toBe(0)
  expect(project.runFiles('acme', 'triage')).toEqual([])

  const progress: { progress: number; total?: number; message?: string }[] = []
  const ran = await mcp.call('run_suite', { suite: 'triage', acknowledgedCalls: 15 }, { onprogress: (p) => progress.push(p) })
  expect(ran.isError, textOf(ran) + mcp.stderr()).toBeFalsy()
  expect(callsMade(project)).toBe(15)
  expect(ran.structuredContent).toMatchObject({ exit_code: 0, bill: { calls: 15 }, outcomes: [{ suite: 'triage', status: 'held', aggregates: { passed: 5 } }] })
  expect(progress.map((p) => p.progress)).toEqual([1, 2, 3, 4, 5])
  expect(progress.every((p) => p.total === 5)).toBe(true)
  expect(progress.map((p) => p.message).sort()).toEqual(['c000', 'c001', 'c002', 'c003', 'c004'].map((id) => `triage › ${id}: pass`))
  // issue 23 item 20: the key the plan named is the key the acknowledged run files under.
  expect(ran.structuredContent).toMatchObject({ outcomes: [{ key: plannedKey }] })
  expect(project.runFiles('acme', 'triage')).toEqual([`${plannedKey}.json`])
  expect(existsSync(join(project.dir, 'side.log'))).toBe(false)
})

test('compare_run explains a regression: the flipped cases with their reasons; a regressed run is not proposed, and the command to accept it on purpose is named', async () => {
  const good = countingSuite({ name: 'triage', cases: 20, thresholds: '{ passRate: 0.5 }' })
  const worse = countingSuite({ name: 'triage', cases: 20, thresholds: '{ passRate: 0.5 }', answer: "i % 3 === 1 && i < 18 ? 'wrong' : 'ok-' + i" })
  const project = makeProject({ 'evals/triage.eval.ts': good })
  const first = await project.vitest([], { CALLS_FILE: join(project.dir, 'calls.log') })
  expect(first.code, first.stdout + first.stderr).toBe(0)
  const firstKey = project.runFiles('acme', 'triage')[0]!.replace(/\.json$/, '')
  const promoted = await project.digline(['promote', '--suite', 'triage', '--run', firstKey])
  expect(promoted.code, promoted.stderr).toBe(0)
  project.write('evals/triage.eval.ts', worse)

  const mcp = await serve(project)
  const plan = await mcp.call('plan_run', { suite: 'triage' })
  const calls = (plan.structuredContent as { calls: number }).calls
  expect(calls).toBe(20)
  const ran = await mcp.call('run_suite', { suite: 'triage', acknowledgedCalls: calls })
  expect(ran.structuredContent, textOf(ran)).toMatchObject({ exit_code: 1, outcomes: [{ status: 'regressed' }] })
  const key = (ran.structuredContent as { outcomes: { key: string }[] }).outcomes[0]!.key

  const compared = await mcp.call('compare_run', { suite: 'triage', run: 'latest' })
  expect(compared.isError, textOf(compared)).toBeFalsy()
  const explained = compared.structuredContent as {
    key: string
    status: string
    exit_code: number
    flipped: { case_id: string; direction: string; reason: string | null }[]
    promotion: { command: string | null; why?: string }
  }
  expect(explained).toMatchObject({ key, status: 'regressed', exit_code: 1, target_config_moved: null, observed_model_moved: null })
  expect(explained.flipped.map((f) => f.case_id)).toEqual(['c001', 'c004', 'c007', 'c010', 'c013', 'c016'])
  expect(explained.flipped.every((f) => f.direction === 'pass_to_fail' && typeof f.reason === 'string' && f.reason.length > 0)).toBe(true)
  expect(explained.promotion.command).toBeNull()
  expect(explained.promotion.why).toContain(`digline promote --suite triage --run ${key} --replacing ${firstKey}`)
  // proposed, never performed
  expect(JSON.parse(project.read('.digline/acme/baselines/triage.json')).promoted_from).toBe(firstKey)
})

test('a suite that cannot start makes the plan a tool error, and nothing is called', async () => {
  const project = makeProject({
    'evals/good.eval.ts': countingSuite({ name: 'good', cases: 3 }),
    'evals/bad.eval.ts': countingSuite({ name: 'bad', cases: 3, samples: 0 }),
  })
  const mcp = await serve(project)
  const plan = await mcp.call('plan_run', {})
  expect(plan.isError).toBe(true)
  expect(textOf(plan)).toContain('refused LaunchNotPlannedError: vitest ended with exit 64 when asked for the bill')
  expect(textOf(plan)).toContain('(1 suite(s) announced one)')
  expect(textOf(plan)).toContain('suite "bad" was refused: samples must be a whole number')
  const ran = await mcp.call('run_suite', { acknowledgedCalls: 3 })
  expect(textOf(ran)).toContain('LaunchNotPlannedError')
  expect(callsMade(project)).toBe(0)
})

test('a malformed argument and a refusal are tool errors with the CLI’s words, and the server keeps answering', async () => {
  const project = makeProject()
  const mcp = await serve(project)

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

test('a client that disconnects mid-run leaves the run resumable: pending shows it and `digline run --resume` finishes it', async () => {
  const project = makeProject({ 'evals/slow.eval.ts': countingSuite({ name: 'slow', cases: 12, concurrency: 1, delayMs: 400 }) })
  const mcp = await serve(project)
  const plan = await mcp.call('plan_run', {})
  expect(plan.structuredContent).toMatchObject({ calls: 12 })

  let settled = 0
  let disconnected!: () => void
  const twoSettled = new Promise<void>((resolve) => (disconnected = resolve))
  const running = mcp.call('run_suite', { acknowledgedCalls: 12 }, { onprogress: (p) => ((settled = p.progress), p.progress >= 2 && disconnected()) }).catch((e: unknown) => e)
  await twoSettled
  const server = mcp.transport.pid!
  await mcp.client.close()
  await running
  expect(settled).toBeGreaterThanOrEqual(2)
  expect(settled).toBeLessThan(12)

  // the server went away on its own, after stopping vitest
  await expect.poll(() => alive(server), { timeout: 60_000, interval: 250 }).toBe(false)
  expect(mcp.stderr()).not.toMatch(/EPIPE|Uncaught|internal error/)
  // what `digline pending --json` lists, read in this process (ADR 0460): polled, it started a process a poll
  const store = join(project.dir, '.digline')
  let pending: { pending: { key: string; journaled: number; finished: boolean }[] } = { pending: [] }
  await expect
    .poll(
      async () => {
        pending = { pending: await pendingRowsOf(store) }
        return pending.pending.length
      },
      { timeout: 60_000, interval: 500 },
    )
    .toBe(1)
  expect(pending.pending[0]!.finished).toBe(false)
  expect(pending.pending[0]!.journaled).toBeGreaterThanOrEqual(2)
  expect(project.runFiles('acme', 'slow')).toEqual([])

  // vitest's workers may still be letting go of the journal's lease: wait for it here rather than by refused resumes
  await expect.poll(async () => (await pendingRowsOf(store))[0]?.live ?? null, { timeout: 20_000, interval: 250 }).toBeNull()
  let resumed = await project.digline(['run', '--resume'], { CALLS_FILE: join(project.dir, 'calls.log') })
  for (let i = 0; i < 20 && resumed.code === 64 && resumed.stderr.includes('LiveRunError'); i++) {
    await new Promise((r) => setTimeout(r, 1000))
    resumed = await project.digline(['run', '--resume'], { CALLS_FILE: join(project.dir, 'calls.log') })
  }
  expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0)
  expect(project.runFiles('acme', 'slow')).toEqual([`${pending.pending[0]!.key}.json`])
})

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

test('resume_run finishes a killed run with exactly the calls plan_run announced, and refuses another number', async () => {
  const project = makeProject({ 'evals/killed.eval.ts': countingSuite({ name: 'killed', cases: 30, samples: 2, concurrency: 2, delayMs: 20 }) })
  const env = { CALLS_FILE: join(project.dir, 'calls.log') }
  await killAfterCalls(project, 20, env)
  const mcp = await serve(project)

  const pending = await mcp.call('pending', {})
  const [row] = (pending.structuredContent as { pending: { key: string; journaled: number }[] }).pending
  expect(row).toBeDefined()
  const left = 30 - row!.journaled

  const plan = await mcp.call('plan_run', { resume: true, key: row!.key })
  expect(plan.isError, textOf(plan)).toBeFalsy()
  expect(plan.structuredContent).toMatchObject({ calls: left * 2, suites: [{ suite: 'killed', key: row!.key, plan: { resumed: true, reused: row!.journaled, toCall: left } }] })
  expect((plan.structuredContent as { suites: { announcement: string }[] }).suites[0]!.announcement).toContain(`${row!.journaled} case(s) already judged`)

  const before = callsMade(project)
  const wrong = await mcp.call('resume_run', { key: row!.key, acknowledgedCalls: left * 2 + 1 })
  expect(textOf(wrong)).toContain('refused BillNotAcknowledgedError')
  expect(callsMade(project)).toBe(before)

  const progress: number[] = []
  const resumed = await mcp.call('resume_run', { key: row!.key, acknowledgedCalls: left * 2 }, { onprogress: (p) => progress.push(p.progress) })
  expect(resumed.structuredContent, textOf(resumed) + mcp.stderr()).toMatchObject({ exit_code: 0, outcomes: [{ suite: 'killed', key: row!.key, status: 'held' }] })
  expect(callsMade(project) - before).toBe(left * 2)
  // the cases judged in the killed leg are reported first, then the ones called now
  expect(progress).toEqual(Array.from({ length: 30 }, (_, i) => i + 1))
  expect(project.runFiles('acme', 'killed')).toEqual([`${row!.key}.json`])
})

// issue 23 item 3: the acknowledgement binds the run (SPEC §13).
test('a suite whose bill changed between the plan and the run is refused by its worker before any call (BillChangedError)', async () => {
  // The run's workers see one case more than the plan's did: a case added in between.
  const grows = countingSuite({ name: 'triage', cases: 3 }).replace('{ length: 3 }', '{ length: process.env.DIGLINE_PROGRESS ? 4 : 3 }')
  const project = makeProject({ 'evals/triage.eval.ts': grows })
  const mcp = await serve(project)
  const plan = await mcp.call('plan_run', {})
  expect(plan.structuredContent, textOf(plan)).toMatchObject({ calls: 3 })
  const ran = await mcp.call('run_suite', { acknowledgedCalls: 3 })
  expect(ran.isError, textOf(ran)).toBe(true)
  expect(textOf(ran)).toContain('refused BillChangedError: suite triage was refused: its bill is now 4 call(s) to the target, and 3 were acknowledged')
  expect(callsMade(project)).toBe(0)
  expect(project.runFiles('acme', 'triage')).toEqual([])
})
