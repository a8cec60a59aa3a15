// Figure 17: the judge-agreement interval (Cohen's kappa, 95% over resampled answers, ADR 0350) holds
// the true kappa about 95% of the time, by seeded simulation in a child process.
import { join } from 'node:path'
import { runJsonChild } from '../lib/process.js'
import { fmt } from '../lib/stats.js'

export async function agreement({ install, quick, log }) {
  const repetitions = quick ? 300 : 1000
  log(`judge agreement: ${repetitions} simulated label sets per cell`)
  const r = await runJsonChild(join(import.meta.dirname, 'agreement-child.js'), { pkg: install.pkg, repetitions })
  const rows = r.cells.map((c) => ({
    figure: `17. judge agreement, ${c.labels} labels${c.perAnswer > 1 ? ` (${c.perAnswer} people per answer)` : ''}, true kappa ${c.truth.toFixed(2)}: interval coverage (${fmt.int(c.repetitions)} sets, seed ${c.seed})`,
    value: `${fmt.pct(c.coverage)} (mean width ${c.meanWidth.toFixed(2)})`,
    goal: '≥ 92%',
    pass: c.coverage >= 0.92,
  }))
  return { rows, raw: r }
}
