// Promotion is a compare-and-swap (SPEC §7): real `digline promote` processes racing from the same
// baseline (each runs a Vitest collect between its check and its write), round after round: exactly
// one lands, the others are refused (64) naming the baseline that landed, and the register never forks.
// Three racers in CI (two rounds: three, then two); six in the long mode, DIGLINE_RELIABILITY_LONG=1 (ADR 0200).
// One `vitest run` makes the first run; the others are its document re-dated, written through the
// store (ADR 0545): the promotes, not the runs, are what races.
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { FileResultStore } from '../../src/store/file/store.js'
import { countingSuite, makeProject, type Project } from '../helpers/project.js'

const RACERS = process.env.DIGLINE_RELIABILITY_LONG === '1' ? 6 : 3
let project: Project
let keys: string[] = []

function register(): { key: string; replaced: string | null }[] {
  const text = project.read('.digline/acme/register.jsonl')
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { key: string; replaced: string | null })
}

beforeAll(async () => {
  project = makeProject({ 'evals/s.eval.ts': countingSuite({ name: 's', cases: 2 }) })
  const run = await project.vitest([], { DIGLINE_CREATED_AT: '2026-11-01T10:00:00.000001Z' })
  expect(run.code, run.stdout + run.stderr).toBe(0)
  const store = new FileResultStore({ root: join(project.dir, '.digline') })
  const first = await store.readRun('acme', 's', project.runFiles('acme', 's')[0]!.replace(/\.json$/, ''))
  for (let i = 1; i < RACERS; i++) await store.writeRun({ ...first, created_at: `2026-11-0${i + 1}T10:00:00.000001Z` })
  keys = project.runFiles('acme', 's').map((f) => f.replace(/\.json$/, ''))
  expect(keys).toHaveLength(RACERS)
})

describe('racing promotions', () => {
  test('round after round, exactly one of the racers lands and the register grows by one line', async () => {
    let baseline: string | null = null
    let contenders = [...keys]
    const lines: { key: string; replaced: string | null }[] = []
    while (contenders.length >= 2) {
      const results = await Promise.all(
        contenders.map((key) => project.spawnDigline(['promote', '--suite', 's', '--run', key, ...(baseline === null ? [] : ['--replacing', baseline])]).done),
      )
      const landed = contenders.filter((_, i) => results[i]!.code === 0)
      expect(landed, results.map((r) => r.stdout + r.stderr).join('\n---\n')).toHaveLength(1)
      const winner = landed[0]!
      for (const [i, result] of results.entries()) {
        if (contenders[i] === winner) continue
        expect(result.code, result.stdout + result.stderr).toBe(64)
        expect(result.stderr).toMatch(/refused (ReplacingRequiredError|ReplacingMismatchError): /)
        expect(result.stderr).toContain(winner)
        expect(result.stderr).toContain(`next: digline promote --suite s --run ${contenders[i]} --replacing ${winner}`)
      }
      lines.push({ key: winner, replaced: baseline })
      expect(register().map((l) => ({ key: l.key, replaced: l.replaced }))).toEqual(lines)
      expect(JSON.parse(project.read('.digline/acme/baselines/s.json')).promoted_from).toBe(winner)
      baseline = winner
      contenders = contenders.filter((key) => key !== winner)
    }
    expect(lines).toHaveLength(RACERS - 1)
  })
})
