// Figure 2: concurrency efficiency. N cases, each one chat call to a loopback OpenAI-compatible
// server with 100 ms latency, at concurrency 32, scored by exact match: digline's whole `vitest run`
// against the ideal ceil(N/32) × 100 ms and against the same cases as plain Vitest `test.concurrent`
// tests (maxConcurrency 32), launched alternately in the same benchmark run. Both sides hand the call
// a signal (digline's per-case ctx.signal, Vitest's per-test context signal), so fetch's cost of
// watching a signal is on both sides and what is left is digline's own. A third side, the floor, is
// the plain tests making each case durable the least way SPEC §6 allows (projects.js): what a
// journal of every case costs on this disk before any of digline's own work.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { concurrencyProject } from '../lib/projects.js'
import { fmt, median, pairedRatio } from '../lib/stats.js'
import { launch, runSummary } from './runs.js'

const LATENCY_MS = 100
const CONCURRENCY = 32

/** The loopback chat server of figure 2 (figure 9 runs the same workload). */
export async function startChatServer() {
  const child = spawn(process.execPath, [join(import.meta.dirname, '..', 'lib', 'chat-server.js'), String(LATENCY_MS)], { stdio: ['ignore', 'pipe', 'inherit'] })
  const port = await new Promise((resolve, reject) => {
    let out = ''
    child.on('error', reject)
    child.on('exit', (code) => reject(new Error(`the chat server exited ${code}`)))
    child.stdout.on('data', (d) => {
      out += d
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]).port)
    })
  })
  const base = `http://127.0.0.1:${port}`
  return {
    base,
    stats: async () => (await fetch(`${base}/stats`)).json(),
    reset: async () => (await fetch(`${base}/reset`)).json(),
    // Awaited, so that its end is not reaped while a later launch's CPU is being counted (lib/process.js).
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}

export async function concurrency({ install, quick, log, earlier = {} }) {
  // Figure 1's launch cost of this run, when it ran: what digline pays once per launch, whatever the cases.
  const launchCost = earlier[1]?.raw?.launch
  const sizes = quick ? [1000] : [1000, 5000]
  const dir = concurrencyProject(install.root)
  const server = await startChatServer()
  const rows = []
  const raw = {}
  try {
    log(`concurrency: warming up`)
    await launch(install, dir, 'plain', { BENCH_N: '64', BENCH_BASE_URL: server.base })
    await launch(install, dir, 'digline', { BENCH_N: '64', BENCH_BASE_URL: server.base })
    await launch(install, dir, 'floor', { BENCH_N: '64', BENCH_BASE_URL: server.base })
    for (const N of sizes) {
      // One repetition's CPU moves by ±10% on every side alone: five repetitions at each size in full mode.
      const reps = quick ? 3 : 5
      const ideal = Math.ceil(N / CONCURRENCY) * LATENCY_MS
      const blank = () => ({ wall: [], cpu: [], rss: [], mainRss: [], workerRss: [], peakInFlight: [], journaled: [], listenerWarnings: [] })
      const side = { plain: blank(), digline: blank(), floor: blank() }
      for (let r = 0; r < reps; r++) {
        const order = [
          ['plain', 'digline', 'floor'],
          ['digline', 'floor', 'plain'],
          ['floor', 'plain', 'digline'],
        ][r % 3]
        for (const which of order) {
          const journaledFile = join(dir, 'journaled.count')
          rmSync(journaledFile, { force: true })
          await server.reset()
          const result = await launch(install, dir, which, { BENCH_N: String(N), BENCH_BASE_URL: server.base, BENCH_JOURNALED_FILE: journaledFile })
          const stats = await server.stats()
          if (stats.requests !== N) throw new Error(`${which} made ${stats.requests} calls for ${N} cases`)
          const s = side[which]
          s.wall.push(result.wallMs)
          s.cpu.push(result.memory.cpuMs)
          s.rss.push(result.memory.treePeakBytes)
          s.mainRss.push(result.memory.mainPeakBytes)
          s.workerRss.push(result.memory.workerPeakBytes)
          s.peakInFlight.push(stats.peakInFlight)
          if (which === 'digline') {
            const summary = runSummary(dir, 'chat')
            const journaled = existsSync(journaledFile) ? Number(readFileSync(journaledFile, 'utf8')) : NaN
            if (summary.results !== N || summary.aggregates.passed !== N || summary.legsLeft !== 0) throw new Error(`digline run incomplete: ${JSON.stringify(summary)}`)
            s.journaled.push(journaled)
            s.listenerWarnings.push(result.listenerWarnings)
          }
          log(
            `  N=${N} rep ${r + 1} ${which}: ${fmt.s(result.wallMs)} (CPU ${fmt.s(result.memory.cpuMs)}), peak RSS ${fmt.mib(result.memory.treePeakBytes)}, in flight ≤ ${stats.peakInFlight}`,
          )
        }
      }
      const vsPlain = pairedRatio(side.digline.wall, side.plain.wall)
      const cpuVsPlain = pairedRatio(side.digline.cpu, side.plain.cpu)
      const floorWall = pairedRatio(side.floor.wall, side.plain.wall)
      const floorCpu = pairedRatio(side.floor.cpu, side.plain.cpu)
      const rssRatio = pairedRatio(side.digline.rss, side.plain.rss)
      const allJournaled = side.digline.journaled.every((j) => j === N)
      // digline's CPU above the floor's, per case; its launch is in it (figure 1 measures the launch alone).
      const overFloorPerCase = (median(side.digline.cpu) - median(side.floor.cpu)) / N
      // The least a launch of digline can take here: the floor's cases plus digline's launch, and the
      // launch that the wall goal leaves beside the floor.
      const plainWall = median(side.plain.wall)
      const withLaunch =
        launchCost === undefined
          ? undefined
          : {
              wall: floorWall + launchCost.costMs / plainWall,
              cpu: floorCpu + launchCost.cpuCostMs / median(side.plain.cpu),
              launchLeftMs: (1.02 - floorWall) * plainWall,
            }
      raw[N] = { ideal, ...side, vsPlain, cpuVsPlain, floorWall, floorCpu, overFloorPerCase, rssRatio, withLaunch }
      rows.push(
        {
          figure: `2. concurrency, ${fmt.int(N)} cases × 1 call (100 ms) at 32: wall time ÷ ideal ${fmt.s(ideal)}`,
          value: `digline ${fmt.x(median(side.digline.wall) / ideal)} (${fmt.s(median(side.digline.wall))}, CPU ${fmt.s(median(side.digline.cpu))}), plain Vitest ${fmt.x(median(side.plain.wall) / ideal)} (${fmt.s(median(side.plain.wall))}, CPU ${fmt.s(median(side.plain.cpu))}), the floor ${fmt.x(median(side.floor.wall) / ideal)} (${fmt.s(median(side.floor.wall))}, CPU ${fmt.s(median(side.floor.cpu))})`,
          goal: '—',
          pass: null,
        },
        {
          figure: `2. concurrency, ${fmt.int(N)} cases: the floor (plain Vitest making each case durable: one CRC-32 line, one write, group-commit fsync) ÷ plain Vitest, wall; CPU`,
          value: `${fmt.x3(floorWall)}; ${fmt.x3(floorCpu)}`,
          goal: '—',
          pass: null,
        },
        {
          figure: `2. concurrency, ${fmt.int(N)} cases: the floor plus digline's launch (figure 1's launch cost in this run, wall and CPU, over plain Vitest's medians here), wall; CPU; the launch that 1.02× leaves beside the floor`,
          value:
            withLaunch === undefined
              ? 'not measured: figure 1 did not run'
              : `${fmt.x3(withLaunch.wall)}; ${fmt.x3(withLaunch.cpu)}; ${withLaunch.launchLeftMs <= 0 ? 'none' : fmt.ms(withLaunch.launchLeftMs)} (figure 1: ${fmt.ms(launchCost.costMs)}, CPU +${fmt.ms(launchCost.cpuCostMs)})`,
          goal: '—',
          pass: null,
        },
        {
          figure: `2. concurrency, ${fmt.int(N)} cases: CPU of the process tree, digline ÷ plain Vitest (paired); digline's CPU above the floor's, per case (its launch included)`,
          value: `${fmt.x3(cpuVsPlain)}; ${fmt.ms(overFloorPerCase)} (the floor ÷ plain: ${fmt.x3(floorCpu)})`,
          goal: '≤ 1.15× (issue 29)',
          pass: cpuVsPlain <= 1.15,
        },
        {
          figure: `2. concurrency, ${fmt.int(N)} cases: digline ÷ plain Vitest; every case journaled`,
          value: `${fmt.x3(vsPlain)}; journaled ${side.digline.journaled.join(', ')} of ${N}; MaxListenersExceededWarning printed ${Math.max(...side.digline.listenerWarnings) > 0 ? `up to ${Math.max(...side.digline.listenerWarnings)} times per run` : 'in no run'}`,
          goal: '≤ 1.02× (issue 29), all journaled',
          pass: vsPlain <= 1.02 && allJournaled,
        },
        {
          figure: `2. concurrency, ${fmt.int(N)} cases: peak RSS of the process tree, digline ÷ plain`,
          value: `${fmt.x3(rssRatio)} (${fmt.mib(median(side.digline.rss))} vs ${fmt.mib(median(side.plain.rss))}; worker ${fmt.mib(median(side.digline.workerRss))} vs ${fmt.mib(median(side.plain.workerRss))})`,
          goal: '≤ 1.10×',
          pass: rssRatio <= 1.1,
        },
      )
    }
  } finally {
    await server.stop()
  }
  return { rows, raw }
}
