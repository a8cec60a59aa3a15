// Stopping stops the spending (SPEC §5): Ctrl-C, SIGTERM, --bail and a Vitest timeout abort the
// calls in flight through ctx.signal and start no new call; the journal stays resumable; exit 2 from
// `vitest run` and from `digline run` alike. Real signals to real process groups.
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { makeProject, type Project, type ProcessResult } from '../helpers/project.js'
import { callLines } from '../helpers/kill.js'

/**
 * Each call logs `start` (or `late`, when it starts after the test asked for the stop), then waits
 * for its signal; an aborted call logs `aborted`. Cases below `quick` answer at once.
 */
function waitingSuite(opts: { quick: number; extra?: string; failFirst?: boolean }): string {
  return `import { evalSuite, scorers } from 'digline'
import { appendFileSync, existsSync } from 'node:fs'

evalSuite({
  name: 'waiting',
  cases: Array.from({ length: 40 }, (_, i) => ({ id: 'c' + String(i).padStart(3, '0'), input: i, expected: i })),
  target: {
    config: { model: 'wait-v1' },
    async ask(i, ctx) {
      appendFileSync('calls.log', (existsSync('stop.flag') ? 'late:' : 'start:') + ctx.caseId + '\\n')
      ${opts.failFirst ? "if (i === 0) throw new Error('upstream 500')" : ''}
      if (i < ${opts.quick}) return { output: i }
      return await new Promise((resolve, reject) => {
        const timer = setTimeout(() => resolve({ output: i }), 20_000)
        ctx.signal.addEventListener('abort', () => {
          clearTimeout(timer)
          appendFileSync('aborts.log', ctx.caseId + '\\n')
          reject(ctx.signal.reason)
        })
      })
    },
  },
  scorers: [scorers.exact()],
  concurrency: 3,
  ${opts.extra ?? ''}
})
`
}

async function waitFor(project: Project, lines: number, child: { exitCode: number | null; done: Promise<ProcessResult> }): Promise<void> {
  const deadline = Date.now() + 60_000
  while (callLines(project).length < lines) {
    if (child.exitCode !== null || Date.now() > deadline) {
      const r = await child.done
      throw new Error(`ended before ${lines} calls:\n${r.stdout}\n${r.stderr}`)
    }
    await new Promise((r) => setTimeout(r, 10))
  }
  await new Promise((r) => setTimeout(r, 300)) // the journal records of the quick cases are written
}

function expectStopped(project: Project, result: ProcessResult, inFlight: number): void {
  const lines = callLines(project)
  expect(
    lines.filter((l) => l.startsWith('late:')),
    result.stdout + result.stderr,
  ).toEqual([])
  expect(callLines(project, 'aborts.log')).toHaveLength(inFlight)
  expect(result.code, result.stdout + result.stderr).toBe(2)
}

const pendingLegs = (project: Project) => {
  const dir = join(project.dir, '.digline', 'acme', 'runs', 'waiting', '.pending')
  return existsSync(dir) ? readdirSync(dir) : []
}

for (const [front, signal] of [
  ['vitest run', 'SIGINT'],
  ['vitest run', 'SIGTERM'],
  ['digline run', 'SIGINT'],
  ['digline run', 'SIGTERM'],
] as const) {
  test(`${signal} to the process group of \`${front}\`: the calls in flight are aborted, none starts after, exit 2`, async () => {
    const project = makeProject({ 'evals/waiting.eval.ts': waitingSuite({ quick: 5 }) })
    const child = front === 'vitest run' ? project.spawnVitest() : project.spawnDigline(['run'])
    await waitFor(project, 8, child)
    project.write('stop.flag', '')
    process.kill(-child.pid!, signal)
    const result = await child.done
    await new Promise((r) => setTimeout(r, 500)) // a worker that kept going would log now
    expectStopped(project, result, 3)
    expect(pendingLegs(project)).toHaveLength(1)
    if (front === 'vitest run' && signal === 'SIGINT') {
      // what was journaled stays resumable: the resume calls only the cases not judged
      const before = callLines(project).length
      project.write('evals/waiting.eval.ts', waitingSuite({ quick: 40 }))
      const resumed = await project.digline(['run', '--resume'])
      expect(resumed.stderr).toContain('35 of 40 cases')
      expect(callLines(project).length - before).toBe(35)
    }
  })
}

test('SIGTERM to the Vitest main process alone: its workers abort their calls and start none', async () => {
  const project = makeProject({ 'evals/waiting.eval.ts': waitingSuite({ quick: 5 }) })
  const child = project.spawnVitest()
  await waitFor(project, 8, child)
  project.write('stop.flag', '')
  process.kill(child.pid!, 'SIGTERM')
  const result = await child.done
  await new Promise((r) => setTimeout(r, 1500))
  expectStopped(project, result, 3)
})

test('--bail: the run is cancelled, the calls in flight are aborted, exit 2', async () => {
  const project = makeProject({ 'evals/waiting.eval.ts': waitingSuite({ quick: 1, failFirst: true }) })
  const result = await project.vitest(['--bail', '1'])
  // c000 fails at once, so c003 starts before the bail lands; nothing starts after it
  expect(callLines(project)).toEqual(['start:c000', 'start:c001', 'start:c002', 'start:c003'])
  expect(callLines(project, 'aborts.log').sort()).toEqual(['c001', 'c002', 'c003'])
  expect(result.code, result.stdout + result.stderr).toBe(2)
})

test('a case Vitest times out: the suite stops calling, exit 2', async () => {
  const project = makeProject({ 'evals/waiting.eval.ts': waitingSuite({ quick: 0, extra: 'timeout: 1500,' }) })
  const result = await project.vitest()
  expect(callLines(project)).toHaveLength(3)
  expect(callLines(project, 'aborts.log')).toHaveLength(3)
  expect(result.code, result.stdout + result.stderr).toBe(2)
  expect(result.stdout + result.stderr).toContain('RunStoppedError')
})
