// Figure 5: memory. Peak RSS (VmHWM) of the Vitest worker, where the suite runs, and of the main
// process, for a small and a large run of the same suite (CASES × 10 samples, instant target,
// recordResponses false); growth per call is the slope between them. The large run is repeated
// with answers of 16 KiB instead of 16 B: with responses not recorded, nothing may grow with them.
// The same calls as plain Vitest tests (one test per case) show what Vitest itself keeps per test;
// the worker's growth is held to a multiple of that too (issue 17).
import { memoryProject } from '../lib/projects.js'
import { fmt, median } from '../lib/stats.js'
import { launch, runSummary } from './runs.js'

const SAMPLES = 10
const SMALL_ANSWER = 16
const BIG_ANSWER = 16 * 1024
const KB = 1000
/** The worker may grow at most this many times what plain Vitest's worker grows for the same calls. */
const PLAIN_RATIO = 1.3

export async function memory({ install, quick, log }) {
  const smallCases = quick ? 100 : 1000
  const largeCases = quick ? 1000 : 10_000
  // Two repetitions even in quick mode: on a loaded machine one launch's worker may go unsampled.
  const reps = 2
  const dir = memoryProject(install.root)
  const variants = [
    { name: 'small', side: 'digline', cases: smallCases, answer: SMALL_ANSWER },
    { name: 'large', side: 'digline', cases: largeCases, answer: SMALL_ANSWER },
    { name: 'large-big-answers', side: 'digline', cases: largeCases, answer: BIG_ANSWER },
    { name: 'plain-small', side: 'plain', cases: smallCases, answer: SMALL_ANSWER },
    { name: 'plain-large', side: 'plain', cases: largeCases, answer: SMALL_ANSWER },
  ]
  const measured = {}
  for (const v of variants) measured[v.name] = { worker: [], main: [], tree: [], wall: [] }
  for (let r = 0; r < reps; r++) {
    for (const v of variants) {
      // Every sample looks for the worker: a plain launch of the small size ends its worker within 250 ms.
      const result = await launch(
        install,
        dir,
        v.side,
        { BENCH_CASES: String(v.cases), BENCH_SAMPLES: String(SAMPLES), BENCH_ANSWER_BYTES: String(v.answer) },
        { scanEveryTick: true },
      )
      if (v.side === 'digline') {
        const summary = runSummary(dir, 'memory')
        if (summary.results !== v.cases || summary.aggregates.passed !== v.cases) throw new Error(`memory run incomplete: ${JSON.stringify(summary)}`)
      }
      const m = measured[v.name]
      m.worker.push(result.memory.workerPeakBytes)
      m.main.push(result.memory.mainPeakBytes)
      m.tree.push(result.memory.treePeakBytes)
      m.wall.push(result.wallMs)
      log(
        `  ${v.name} (${v.cases}×${SAMPLES}, ${v.answer} B answers) rep ${r + 1}: worker ${fmt.mib(result.memory.workerPeakBytes)}, main ${fmt.mib(result.memory.mainPeakBytes)}, ${fmt.s(result.wallMs)}`,
      )
    }
  }
  const med = (name, key) => median(measured[name][key])
  const smallCalls = smallCases * SAMPLES
  const largeCalls = largeCases * SAMPLES
  const slope = (small, large, key) => (med(large, key) - med(small, key)) / (largeCalls - smallCalls)
  const perCall = (key) => slope('small', 'large', key)
  const plainPerCall = (key) => slope('plain-small', 'plain-large', key)
  const workerRatio = perCall('worker') / plainPerCall('worker')
  const answerPerCall = (key) => (med('large-big-answers', key) - med('large', key)) / largeCalls
  const rows = [
    {
      figure: `5. memory, ${fmt.int(largeCalls)} calls (${fmt.int(largeCases)} cases × ${SAMPLES}): peak RSS, worker; main`,
      value: `${fmt.mib(med('large', 'worker'))}; ${fmt.mib(med('large', 'main'))} (at ${fmt.int(smallCalls)} calls: ${fmt.mib(med('small', 'worker'))}; ${fmt.mib(med('small', 'main'))})`,
      goal: '—',
      pass: null,
    },
    {
      figure: '5. memory growth per call, worker; main',
      value: `${fmt.bytes(perCall('worker'))}; ${fmt.bytes(perCall('main'))} (plain Vitest, same calls as one test per case: ${fmt.bytes(plainPerCall('worker'))}; ${fmt.bytes(plainPerCall('main'))}); worker ÷ plain worker ${workerRatio.toFixed(3)}×`,
      goal: `≤ 1 KB per call, and the worker ≤ ${PLAIN_RATIO}× plain Vitest's own`,
      pass: perCall('worker') <= KB && perCall('main') <= KB && workerRatio <= PLAIN_RATIO,
    },
    {
      figure: `5. memory with 16 KiB answers, recordResponses false: extra peak per call, worker; main`,
      value: `${fmt.bytes(answerPerCall('worker'))}; ${fmt.bytes(answerPerCall('main'))} (worker peak ${fmt.mib(med('large-big-answers', 'worker'))})`,
      goal: '≤ 1 KB per call (none proportional to answers)',
      pass: answerPerCall('worker') <= KB && answerPerCall('main') <= KB,
    },
  ]
  return {
    rows,
    raw: {
      samples: SAMPLES,
      smallCases,
      largeCases,
      measured,
      growthPerCallBytes: { worker: perCall('worker'), main: perCall('main') },
      plainGrowthPerCallBytes: { worker: plainPerCall('worker'), main: plainPerCall('main') },
      workerGrowthRatioToPlain: workerRatio,
      answerPerCallBytes: { worker: answerPerCall('worker'), main: answerPerCall('main') },
    },
  }
}
