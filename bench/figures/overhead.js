// Figure 1: plugin overhead. N cases with an instant target and 1 sample under `vitest run` with
// digline, against the same N checks as plain Vitest tests in one file. The difference per case is
// held against the machine's own floor: one durable append (write + fsync) on this disk, measured
// right before each set of launches. The same pair at 100 cases separates what a launch pays once
// (plugin, journal, run document) from what each case pays, and the digline run repeated with its
// store on tmpfs (where fsync is free) separates digline's CPU from the wait for the disk: its row is
// the CPU of the process tree per further case, (at N − at 100) ÷ (N − 100), digline − plain. The last
// set runs the same N cases at concurrency 32 (plain Vitest: test.concurrent, 32 at once), where
// records of slots that finish together share one fsync (group commit), so a case should cost a
// fraction of a durable append; beside them the floor (figure 2's: plain Vitest making each case
// durable), whose cost per case plus the launch's share is the least digline could read there.
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { measureFsync } from '../lib/floor.js'
import { overheadProject } from '../lib/projects.js'
import { fmt, median, pairedRatio } from '../lib/stats.js'
import { launch, rotated, runSummary } from './runs.js'

const SMALL = 100
const CONCURRENCY = 32
const LAUNCH_CASES = 10
const LAUNCH_CALL_MS = 1

function tmpfsDir() {
  try {
    accessSync('/dev/shm', constants.W_OK)
    return mkdtempSync('/dev/shm/digline-bench-')
  } catch {
    return undefined
  }
}

export async function overhead({ install, quick, log }) {
  const N = quick ? 1000 : 10_000
  const reps = quick ? 3 : 5
  const dir = overheadProject(install.root)
  const shm = tmpfsDir()
  const tmpfsStore = shm === undefined ? undefined : join(shm, 'store')
  log(`plugin overhead: ${N} and ${SMALL} cases, ${reps} repetitions (warming up)`)
  await launch(install, dir, 'plain', { BENCH_N: '50' })
  await launch(install, dir, 'digline', { BENCH_N: '50' })
  const sides = tmpfsStore === undefined ? ['plain', 'digline'] : ['plain', 'digline', 'tmpfs']
  const blank = () => Object.fromEntries(sides.map((s) => [s, []]))
  const wall = { [N]: blank(), [SMALL]: blank() }
  // CPU of the process tree at both sizes: the tmpfs row is read per further case, past the launch.
  const cpuAt = { [N]: blank(), [SMALL]: blank() }
  const cpu = cpuAt[N]
  const floors = []
  try {
    for (let r = 0; r < reps; r++) {
      floors.push(await measureFsync(dir, quick ? 500 : 1000))
      for (const size of [SMALL, N]) {
        for (const side of rotated(sides, r)) {
          if (side === 'tmpfs') rmSync(tmpfsStore, { recursive: true, force: true })
          const result = await launch(install, dir, side, { BENCH_N: String(size), BENCH_TMPFS_STORE: tmpfsStore ?? '' })
          if (side !== 'plain') {
            const summary = runSummary(dir, 'overhead', 'bench', side === 'tmpfs' ? tmpfsStore : undefined)
            if (summary.results !== size || summary.aggregates.passed !== size || summary.legsLeft !== 0) throw new Error(`digline run incomplete: ${JSON.stringify(summary)}`)
          }
          wall[size][side].push(result.wallMs)
          cpuAt[size][side].push(result.memory.cpuMs)
          log(`  rep ${r + 1}, ${size} cases, ${side}: ${fmt.s(result.wallMs)} (CPU ${fmt.s(result.memory.cpuMs)})`)
        }
      }
    }
  } finally {
    if (shm !== undefined) rmSync(shm, { recursive: true, force: true })
  }
  // The launch cost as issue 29 states it: 10 cases of one 1 ms call, digline − plain Vitest, wall.
  const launchWall = { plain: [], digline: [] }
  const launchCpu = { plain: [], digline: [] }
  const launchReps = quick ? 5 : 9
  log(`launch cost: ${LAUNCH_CASES} cases × one ${LAUNCH_CALL_MS} ms call, ${launchReps} repetitions`)
  for (let r = 0; r < launchReps; r++) {
    for (const side of r % 2 === 0 ? ['plain', 'digline'] : ['digline', 'plain']) {
      const result = await launch(install, dir, side, { BENCH_N: String(LAUNCH_CASES), BENCH_CALL_MS: String(LAUNCH_CALL_MS) })
      if (side === 'digline') {
        const summary = runSummary(dir, 'overhead', 'bench')
        if (summary.results !== LAUNCH_CASES || summary.aggregates.passed !== LAUNCH_CASES) throw new Error(`digline run incomplete: ${JSON.stringify(summary)}`)
      }
      launchWall[side].push(result.wallMs)
      launchCpu[side].push(result.memory.cpuMs)
    }
  }
  const launchCostMs = median(launchWall.digline.map((d, i) => d - launchWall.plain[i]))
  const launchCpuMs = median(launchCpu.digline.map((d, i) => d - launchCpu.plain[i]))
  // At concurrency 32 a third side, the floor: plain Vitest making each case durable (figure 2's).
  const wideSides = ['plain', 'digline', 'floor']
  const wide = { plain: [], digline: [], floor: [] }
  const wideCpu = { plain: [], digline: [], floor: [] }
  const wideFloors = []
  log(`plugin overhead at concurrency ${CONCURRENCY}: ${N} cases, ${reps} repetitions`)
  for (let r = 0; r < reps; r++) {
    wideFloors.push(await measureFsync(dir, quick ? 500 : 1000))
    for (const side of rotated(wideSides, r)) {
      const result = await launch(install, dir, side, { BENCH_N: String(N), BENCH_CONCURRENCY: String(CONCURRENCY) })
      if (side === 'digline') {
        const summary = runSummary(dir, 'overhead', 'bench')
        if (summary.results !== N || summary.aggregates.passed !== N || summary.legsLeft !== 0) throw new Error(`digline run incomplete: ${JSON.stringify(summary)}`)
      }
      wide[side].push(result.wallMs)
      wideCpu[side].push(result.memory.cpuMs)
      log(`  rep ${r + 1}, ${N} cases at ${CONCURRENCY}, ${side}: ${fmt.s(result.wallMs)} (CPU ${fmt.s(result.memory.cpuMs)})`)
    }
  }
  const diff = (size) => wall[size].digline.map((d, i) => d - wall[size].plain[i])
  const perCaseMs = median(diff(N).map((d) => d / N))
  const fixedMs = median(diff(SMALL))
  const marginalMs = median(diff(N).map((d, i) => (d - diff(SMALL)[i]) / (N - SMALL)))
  const fsyncMean = median(floors.map((f) => f.appendAndFsyncMeanMs))
  const fsyncMedian = median(floors.map((f) => f.fsyncMs))
  const ratio = pairedRatio(wall[N].digline, wall[N].plain)
  const goalMs = 2 * fsyncMean
  const rows = [
    {
      figure: `1. plugin overhead: ${fmt.int(N)} instant cases, digline ÷ plain Vitest (whole process)`,
      value: `${fmt.x(ratio)} (${fmt.s(median(wall[N].digline))} vs ${fmt.s(median(wall[N].plain))}; CPU ${fmt.s(median(cpu.digline))} vs ${fmt.s(median(cpu.plain))})`,
      goal: '—',
      pass: null,
    },
    {
      figure: `1. plugin overhead per case ((digline − plain) ÷ ${fmt.int(N)})`,
      value: `${fmt.ms(perCaseMs)} (write + fsync on this disk: mean ${fmt.ms(fsyncMean)}, median ${fmt.ms(fsyncMedian)})`,
      goal: `≤ 2 × fsync = ${fmt.ms(goalMs)}`,
      pass: perCaseMs <= goalMs,
    },
    {
      figure: `1. of which once per launch (at ${SMALL} cases), and per further case`,
      value: `${fmt.ms(fixedMs)}; ${fmt.ms(marginalMs)} per case`,
      goal: '—',
      pass: null,
    },
  ]
  rows.push({
    figure: `1. launch cost: ${LAUNCH_CASES} cases × one ${LAUNCH_CALL_MS} ms call, digline − plain Vitest (wall, paired, ${launchReps} repetitions)`,
    value: `${fmt.ms(launchCostMs)} (${fmt.s(median(launchWall.digline))} vs ${fmt.s(median(launchWall.plain))}; CPU of the process tree +${fmt.ms(launchCpuMs)})`,
    goal: '≤ 100 ms (issue 29)',
    pass: launchCostMs <= 100,
  })
  const widePerCaseMs = median(wide.digline.map((d, i) => (d - wide.plain[i]) / N))
  const wideFloorPerCaseMs = median(wide.floor.map((d, i) => (d - wide.plain[i]) / N))
  const wideFsyncMean = median(wideFloors.map((f) => f.appendAndFsyncMeanMs))
  const wideGoalMs = 0.5 * wideFsyncMean
  rows.push({
    figure: `1. plugin overhead per case at concurrency ${CONCURRENCY} ((digline − plain) ÷ ${fmt.int(N)}; plain: test.concurrent)`,
    value: `${fmt.ms(widePerCaseMs)}; ${fmt.x(pairedRatio(wide.digline, wide.plain))} (${fmt.s(median(wide.digline))} vs ${fmt.s(median(wide.plain))}; CPU ${fmt.s(median(wideCpu.digline))} vs ${fmt.s(median(wideCpu.plain))}; write + fsync: mean ${fmt.ms(wideFsyncMean)})`,
    goal: `≤ 0.5 × fsync = ${fmt.ms(wideGoalMs)}`,
    pass: widePerCaseMs <= wideGoalMs,
  })
  rows.push({
    figure: `1. the same at concurrency ${CONCURRENCY}: the floor (plain Vitest making each case durable, as in figure 2) per case, (floor − plain) ÷ ${fmt.int(N)}; the floor plus this run's launch cost ÷ ${fmt.int(N)}`,
    value: `${fmt.ms(wideFloorPerCaseMs)} (${fmt.s(median(wide.floor))}, CPU ${fmt.s(median(wideCpu.floor))}); ${fmt.ms(wideFloorPerCaseMs + launchCostMs / N)} (launch ${fmt.ms(launchCostMs)})`,
    goal: '—',
    pass: null,
  })
  let tmpfsPerCaseMs
  let tmpfsCpuPerCaseMs
  if (tmpfsStore !== undefined) {
    // Per further case, as figure 19 reads CPU: what n − SMALL more cases cost on each side, paired by
    // repetition, so the launch (paid once, and noisy on a loaded machine) is left out.
    const further = (series, side) => series[N][side].map((v, i) => (v - series[SMALL][side][i]) / (N - SMALL))
    const slope = (series) => {
      const plain = further(series, 'plain')
      return median(further(series, 'tmpfs').map((d, i) => d - plain[i]))
    }
    tmpfsCpuPerCaseMs = slope(cpuAt)
    tmpfsPerCaseMs = slope(wall)
    rows.push({
      figure: `1. the same with the store on tmpfs (no fsync cost): CPU per further case, digline − plain ((CPU at ${fmt.int(N)} − at ${SMALL}) ÷ ${fmt.int(N - SMALL)}, process tree)`,
      value: `${fmt.ms(tmpfsCpuPerCaseMs)} (wall per further case ${fmt.ms(tmpfsPerCaseMs)}; whole run ${fmt.x(pairedRatio(wall[N].tmpfs, wall[N].plain))} plain, CPU ${fmt.s(median(cpuAt[N].tmpfs))} vs ${fmt.s(median(cpuAt[N].plain))})`,
      goal: '≤ 0.15 ms (issue 29)',
      pass: tmpfsCpuPerCaseMs <= 0.15,
    })
  }
  return {
    rows,
    raw: {
      N,
      small: SMALL,
      reps,
      wallMs: wall,
      cpuMs: cpuAt,
      floors,
      ratio,
      perCaseMs,
      fixedMs,
      marginalMs,
      tmpfsPerCaseMs,
      tmpfsCpuPerCaseMs,
      fsyncMeanMs: fsyncMean,
      fsyncMedianMs: fsyncMedian,
      launch: { cases: LAUNCH_CASES, callMs: LAUNCH_CALL_MS, wallMs: launchWall, cpuMs: launchCpu, costMs: launchCostMs, cpuCostMs: launchCpuMs },
      concurrency: {
        concurrency: CONCURRENCY,
        wallMs: wide,
        cpuMs: wideCpu,
        floors: wideFloors,
        perCaseMs: widePerCaseMs,
        floorPerCaseMs: wideFloorPerCaseMs,
        fsyncMeanMs: wideFsyncMean,
      },
    },
  }
}
