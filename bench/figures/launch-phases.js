// Figure 20: where a launch's wall time goes. Figure 1's launch row (10 cases × one 1 ms call) and
// its concurrency-32 row (1,000 instant cases) on three sides, digline, plain Vitest and the floor
// (plain Vitest making each case durable), each split at five marks: the worker's start, the first
// call to the target, the last call, the end of the run as a reporter sees it, and the main
// process's exit. Each phase is read as side − plain Vitest, paired by repetition, so the table says
// which part of digline's launch is above the floor: Vitest's main process before the worker, the
// worker before its first call, the calls, the end of the run, or the exit.
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { phasesProject } from '../lib/projects.js'
import { fmt, median } from '../lib/stats.js'
import { launch, rotated } from './runs.js'

const SIDES = ['plain', 'digline', 'floor']
const PHASES = [
  ['main', "Vitest's main process until the worker starts"],
  ['worker', 'worker start → first call'],
  ['calls', 'first → last call'],
  ['end', 'last call → the run ends for the reporters'],
  ['exit', 'run end → exit'],
]

const signed = (ms) => `${ms >= 0 ? '+' : '−'}${fmt.ms(Math.abs(ms))}`

async function launchOnce(install, dir, side, env) {
  // The store is emptied before the clock starts, so launch's own emptying costs the digline side nothing.
  rmSync(join(dir, '.digline'), { recursive: true, force: true })
  const out = join(dir, `phases-${side}.json`)
  rmSync(out, { force: true })
  rmSync(`${out}.main`, { force: true })
  const spawnedAt = performance.timeOrigin + performance.now()
  const result = await launch(install, dir, side, { ...env, BENCH_PHASES_OUT: out })
  const worker = JSON.parse(readFileSync(out, 'utf8'))
  const main = JSON.parse(readFileSync(`${out}.main`, 'utf8'))
  return {
    main: worker.workerStart - spawnedAt,
    worker: worker.first - worker.workerStart,
    calls: worker.last - worker.first,
    end: main.runEnd - worker.last,
    exit: main.exit - main.runEnd,
    total: result.wallMs,
  }
}

export async function launchPhases({ install, quick, log }) {
  const dir = phasesProject(install.root)
  const reps = quick ? 5 : 9
  const sizes = [
    { label: '10 cases × one 1 ms call', env: { BENCH_N: '10', BENCH_CALL_MS: '1', BENCH_CONCURRENCY: '1' } },
    { label: '1,000 instant cases at concurrency 32', env: { BENCH_N: '1000', BENCH_CALL_MS: '0', BENCH_CONCURRENCY: '32' } },
  ]
  for (const side of SIDES) await launchOnce(install, dir, side, { BENCH_N: '50', BENCH_CONCURRENCY: '1' })
  const rows = []
  const raw = {}
  for (const size of sizes) {
    log(`where the launch goes: ${size.label}, ${reps} repetitions`)
    const runs = Object.fromEntries(SIDES.map((s) => [s, []]))
    for (let r = 0; r < reps; r++) for (const side of rotated(SIDES, r)) runs[side].push(await launchOnce(install, dir, side, size.env))
    const above = (side, phase) => median(runs[side].map((run, i) => run[phase] - runs.plain[i][phase]))
    const phases = [...PHASES.map(([key]) => key), 'total']
    const split = (side) => Object.fromEntries(phases.map((p) => [p, above(side, p)]))
    const digline = split('digline')
    const floor = split('floor')
    const plain = Object.fromEntries(phases.map((p) => [p, median(runs.plain.map((run) => run[p]))]))
    raw[size.env.BENCH_N] = { runs, plain, digline, floor }
    const line = (s) => PHASES.map(([key, name]) => `${name} ${signed(s[key])}`).join('; ')
    rows.push({
      figure: `20. where the launch goes, ${size.label}: digline − plain Vitest per phase (medians of ${reps} paired repetitions; the phases' medians need not add up to the total's)`,
      value: `${line(digline)}; whole launch ${signed(digline.total)} (plain Vitest's own phases, in the same order: ${PHASES.map(([key]) => fmt.ms(plain[key])).join(', ')}; ${fmt.s(plain.total)} in all)`,
      goal: '—',
      pass: null,
    })
    rows.push({
      figure: `20. the same, the floor (plain Vitest making each case durable) − plain Vitest`,
      value: `${line(floor)}; whole launch ${signed(floor.total)}`,
      goal: '—',
      pass: null,
    })
  }
  return { rows, raw }
}
