// Figure 19: flat at scale. A suite of N cases read from a JSONL file with dataset(), one instant
// call each at concurrency 32, against plain Vitest declaring one test.concurrent per row of the
// same file (maxConcurrency 32), alternated. Memory: the peak RSS of the process tree, of Vitest's
// main process and of the worker, digline ÷ plain. CPU: the CPU per case of the process tree past
// the launch, (CPU at n − CPU at 10 cases) ÷ (n − 10), at N against the same at 1,000 cases, so a
// cost that grows faster than the cases shows as a ratio above 1.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { scaleProject } from '../lib/projects.js'
import { fmt, median, pairedRatio } from '../lib/stats.js'
import { launch, runSummary } from './runs.js'

const LAUNCH = 10
const REFERENCE = 1000

function writeCases(dir, n) {
  const lines = []
  for (let i = 0; i < n; i++) lines.push(JSON.stringify({ id: `c${String(i).padStart(6, '0')}`, input: i, expected: `ok-${i}` }))
  writeFileSync(join(dir, 'data', 'cases.jsonl'), `${lines.join('\n')}\n`)
}

export async function scale({ install, quick, log }) {
  const N = quick ? 20_000 : 100_000
  const dir = scaleProject(install.root)
  mkdirSync(join(dir, 'data'), { recursive: true })
  const sizes = [
    { n: LAUNCH, reps: 3 },
    { n: REFERENCE, reps: 3 },
    { n: N, reps: quick ? 1 : 2 },
  ]
  const m = {}
  for (const { n, reps } of sizes) {
    writeCases(dir, n)
    m[n] = { plain: { cpu: [], tree: [], main: [], worker: [], wall: [] }, digline: { cpu: [], tree: [], main: [], worker: [], wall: [] } }
    for (let r = 0; r < reps; r++) {
      for (const side of r % 2 === 0 ? ['plain', 'digline'] : ['digline', 'plain']) {
        const result = await launch(install, dir, side, {})
        if (side === 'digline') {
          const summary = runSummary(dir, 'scale')
          if (summary.results !== n || summary.aggregates.passed !== n || summary.legsLeft !== 0) throw new Error(`digline run incomplete: ${JSON.stringify(summary)}`)
        }
        const s = m[n][side]
        s.cpu.push(result.memory.cpuMs)
        s.tree.push(result.memory.treePeakBytes)
        s.main.push(result.memory.mainPeakBytes)
        s.worker.push(result.memory.workerPeakBytes)
        s.wall.push(result.wallMs)
        log(
          `  ${fmt.int(n)} cases, rep ${r + 1}, ${side}: ${fmt.s(result.wallMs)}, CPU ${fmt.s(result.memory.cpuMs)}, peak RSS tree ${fmt.mib(result.memory.treePeakBytes)} (main ${fmt.mib(result.memory.mainPeakBytes)}, worker ${fmt.mib(result.memory.workerPeakBytes)})`,
        )
      }
    }
  }
  const perCase = (side, n) => (median(m[n][side].cpu) - median(m[LAUNCH][side].cpu)) / (n - LAUNCH)
  const cpuRatio = perCase('digline', N) / perCase('digline', REFERENCE)
  const plainCpuRatio = perCase('plain', N) / perCase('plain', REFERENCE)
  const rssRatio = pairedRatio(m[N].digline.tree, m[N].plain.tree)
  const med = (side, key) => median(m[N][side][key])
  const rows = [
    {
      figure: `19. ${fmt.int(N)} cases from JSONL, 1 instant call each at 32: peak RSS of the process tree, digline ÷ plain Vitest (${fmt.int(N)} test.concurrent)`,
      value: `${fmt.x3(rssRatio)} (${fmt.mib(med('digline', 'tree'))} vs ${fmt.mib(med('plain', 'tree'))}; main ${fmt.mib(med('digline', 'main'))} vs ${fmt.mib(med('plain', 'main'))}; worker ${fmt.mib(med('digline', 'worker'))} vs ${fmt.mib(med('plain', 'worker'))})`,
      goal: '≤ 1.0×',
      pass: rssRatio <= 1.0,
    },
    {
      figure: `19. the same: CPU per case past the launch at ${fmt.int(N)} ÷ at ${fmt.int(REFERENCE)} cases, digline`,
      value: `${fmt.x3(cpuRatio)} (${fmt.ms(perCase('digline', N))} vs ${fmt.ms(perCase('digline', REFERENCE))}; plain Vitest ${fmt.x3(plainCpuRatio)}: ${fmt.ms(perCase('plain', N))} vs ${fmt.ms(perCase('plain', REFERENCE))})`,
      goal: '≤ 1.10×',
      pass: cpuRatio <= 1.1,
    },
    {
      figure: `19. the same: whole run, digline; plain Vitest`,
      value: `${fmt.s(med('digline', 'wall'))}, CPU ${fmt.s(med('digline', 'cpu'))}; ${fmt.s(med('plain', 'wall'))}, CPU ${fmt.s(med('plain', 'cpu'))}`,
      goal: '—',
      pass: null,
    },
  ]
  return {
    rows,
    raw: {
      N,
      measured: m,
      perCaseMs: {
        digline: { [N]: perCase('digline', N), [REFERENCE]: perCase('digline', REFERENCE) },
        plain: { [N]: perCase('plain', N), [REFERENCE]: perCase('plain', REFERENCE) },
      },
      cpuRatio,
      rssRatio,
    },
  }
}
