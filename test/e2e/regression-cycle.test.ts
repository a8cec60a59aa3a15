// The cycle CI lives by, with real processes: run → promote → a worse target fails `vitest run`
// with exit 1 and the flipped cases → `digline compare` agrees → promote the new run with
// --replacing → green again. Vitest's own JUnit reporter keeps working beside digline's. The cycle's
// first promote and its text compare go through the bin; the other compare and promote calls are
// the CLI's main() in-process (ADR 0470, 0525).
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { main } from '../../src/cli/main.js'
import { countingSuite, makeProject, type Project } from '../helpers/project.js'
import { inProcess } from './cli-in-process.js'

/** `digline compare …` through the CLI's main() in the project's directory. */
async function compare(project: Project, argv: string[]): Promise<{ code: number; stdout: string }> {
  let stdout = ''
  const code = await main(['compare', ...argv], {
    cwd: project.dir,
    env: { PATH: process.env.PATH, NO_COLOR: '1', CI: '1' },
    stdout: (text) => void (stdout += `${text}\n`),
    stderr: () => undefined,
  })
  return { code, stdout }
}

const GOOD = countingSuite({ name: 'triage', cases: 20, thresholds: '{ passRate: 0.5 }' })
// Cases 1, 4, 7, 10, 13 and 16 now answer wrongly: 6 of 20, a 30-point drop.
const WORSE = countingSuite({ name: 'triage', cases: 20, thresholds: '{ passRate: 0.5 }', answer: "i % 3 === 1 && i < 18 ? 'wrong' : 'ok-' + i" })
const FLIPPED = ['c001', 'c004', 'c007', 'c010', 'c013', 'c016']

test('run → promote → regression (exit 1) → compare (exit 1) → promote with --replacing → green', async () => {
  const project = makeProject({ 'evals/triage.eval.ts': GOOD })
  const summary = join(project.dir, 'step-summary.md')

  const first = await project.vitest([], { DIGLINE_CREATED_AT: '2026-11-29T10:00:00.000001Z' })
  expect(first.code, first.stdout + first.stderr).toBe(0)
  expect(first.stdout).toContain('no baseline: judged by its thresholds alone')
  const [firstFile] = project.runFiles('acme', 'triage')
  const firstKey = firstFile!.replace(/\.json$/, '')

  const promoted = await project.digline(['promote', '--suite', 'triage', '--run', firstKey])
  expect(promoted.code, promoted.stdout + promoted.stderr).toBe(0)
  expect(promoted.stdout).toContain(`Promoted run ${firstKey} to the baseline of suite triage`)
  expect(promoted.stdout).toMatch(/^Commit \S*baselines\/triage\.json and \S*register\.jsonl\.$/m)
  const baseline = JSON.parse(project.read('.digline/acme/baselines/triage.json'))
  expect(baseline).toMatchObject({ promoted_from: firstKey, suite: 'triage', aggregates: { passed: 20 } })
  expect(
    project
      .read('.digline/acme/register.jsonl')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l)),
  ).toEqual([
    { promoted_at: baseline.promoted_at, suite: 'triage', key: firstKey, replaced: null, config_hash: baseline.config_hash, cases: 20, passed: 20, failed: 0, pass_rate: 1 },
  ])

  project.write('evals/triage.eval.ts', WORSE)
  const worse = await project.vitest(['--reporter=default', '--reporter=junit', '--outputFile.junit=junit.xml'], {
    DIGLINE_CREATED_AT: '2026-11-30T10:00:00.000001Z',
    GITHUB_STEP_SUMMARY: summary,
  })
  expect(worse.code, worse.stdout + worse.stderr).toBe(1)
  expect(worse.stdout).toContain('digline triage regressed')
  expect(worse.stdout).toContain(`against baseline ${firstKey}`)
  expect(worse.stdout).toContain(`pass → fail (6): ${FLIPPED.join(', ')}`)
  expect(worse.stdout).toMatch(/difference +−30\.0 points, 95% interval \[−52\.0, −2\.4\] over 20 shared cases/)
  expect(worse.stdout).toContain('digline exit 1: a suite regressed')
  expect(existsSync(join(project.dir, 'junit.xml'))).toBe(true)
  expect(readFileSync(join(project.dir, 'junit.xml'), 'utf8')).toContain('c001')

  const md = readFileSync(summary, 'utf8')
  expect(md).toContain('## digline: exit 1, a suite regressed, a threshold was missed or another test failed')
  expect(md).toContain('### `triage`: regressed')
  expect(md).toMatch(/\| pass rate \| 100\.0% \[83\.9%, 100\.0%\] \| 70\.0% \[48\.1%, 85\.5%\] \|/)
  expect(md).toContain('**Paired difference of pass rates:** −30.0 points, 95% interval [−52.0, −2.4] over 20 shared cases')
  expect(md).toContain(`**pass → fail (6)**: ${FLIPPED.map((id) => `\`${id}\``).join(', ')}`)
  expect(md).toContain('**Regressed:** pass rate −30.0 points')

  const compared = await project.digline(['compare', '--suite', 'triage', '--run', 'latest'])
  expect(compared.code, compared.stdout + compared.stderr).toBe(1)
  expect(compared.stdout).toContain(`pass → fail (6): ${FLIPPED.join(', ')}`)
  const asJson = await compare(project, ['--suite', 'triage', '--run', 'latest', '--json'])
  expect(asJson.code).toBe(1)
  const json = JSON.parse(asJson.stdout)
  expect(json).toMatchObject({ suite: 'triage', status: 'regressed', exit_code: 1, baseline: { regressed: true, flipped: { pass_to_fail: FLIPPED } } })
  const asMd = await compare(project, ['--suite', 'triage', '--run', 'latest', '--format', 'md'])
  expect(asMd.code).toBe(1)
  expect(asMd.stdout).toContain('### `triage`: regressed')
  expect(asMd.stdout).toContain(`**pass → fail (6)**: ${FLIPPED.map((id) => `\`${id}\``).join(', ')}`)
  const sameAsSummary = md.split('\n').filter((l) => l.startsWith('| pass rate'))
  expect(asMd.stdout.split('\n').filter((l) => l.startsWith('| pass rate'))).toEqual(sameAsSummary)

  const secondKey = project
    .runFiles('acme', 'triage')
    .at(-1)!
    .replace(/\.json$/, '')
  const unsaid = await inProcess(project, ['promote', '--suite', 'triage', '--run', secondKey])
  expect(unsaid.code).toBe(64)
  expect(unsaid.stderr).toContain(`digline promote --suite triage --run ${secondKey} --replacing ${firstKey}`)
  const replaced = await inProcess(project, ['promote', '--suite', 'triage', '--run', secondKey, '--replacing', firstKey])
  expect(replaced.code, replaced.stdout + replaced.stderr).toBe(0)
  expect(replaced.stdout).toContain(`replacing ${firstKey}`)
  const register = project
    .read('.digline/acme/register.jsonl')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
  expect(register.map((e) => [e.key, e.replaced, e.passed, e.failed])).toEqual([
    [firstKey, null, 20, 0],
    [secondKey, firstKey, 14, 6],
  ])

  const green = await project.vitest([], { DIGLINE_CREATED_AT: '2026-12-01T10:00:00.000001Z' })
  expect(green.code, green.stdout + green.stderr).toBe(0)
  expect(green.stdout).toContain(`against baseline ${secondKey}`)
  expect(green.stdout).toContain('pass → fail (0)')
  expect(green.stdout).toContain('digline exit 0')
})

test('digline compare: no baseline says so and exits by the thresholds alone', async () => {
  const project = makeProject({ 'evals/triage.eval.ts': countingSuite({ name: 'triage', cases: 4, thresholds: '{ passRate: 0.9 }', answer: "i === 0 ? 'no' : 'ok-' + i" }) })
  expect((await project.vitest()).code).toBe(1)
  const compared = await compare(project, ['--suite', 'triage', '--run', 'latest'])
  expect(compared.code).toBe(1)
  expect(compared.stdout).toContain('no baseline: judged by its thresholds alone (to make this run the baseline: digline promote --suite triage --run ')
  const md = await compare(project, ['--suite', 'triage', '--run', 'latest', '--format', 'md'])
  expect(md.stdout).toContain('No baseline: judged by its thresholds alone.')
  expect(md.stdout).toContain('**Missed** threshold pass_rate: 75.0% < 90.0%')
})

test('a baseline that cannot be read fails the run as not judged (exit 2), in words, and nothing is rewritten', async () => {
  const project = makeProject({ 'evals/triage.eval.ts': countingSuite({ name: 'triage', cases: 3 }) })
  project.write('.digline/acme/baselines/triage.json', '<<<<<<< HEAD\n')
  const run = await project.vitest()
  expect(run.code, run.stdout + run.stderr).toBe(2)
  expect(run.stdout).toContain('UnreadableBaselineError')
  expect(run.stdout).toContain('digline triage not judged')
  expect(project.read('.digline/acme/baselines/triage.json')).toBe('<<<<<<< HEAD\n')
  const compared = await compare(project, ['--suite', 'triage', '--run', 'latest'])
  expect(compared.code).toBe(2)
  expect(compared.stdout).toContain('git checkout -- ')
})
