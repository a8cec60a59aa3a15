// Figure 13: the gates on cost and latency per case (ADR 0065), by seeded simulation through
// compareRuns in a child process: the A/A false alarms and the power against a 20% rise at 300 cases.
import { join } from 'node:path'
import { runJsonChild } from '../lib/process.js'
import { fmt } from '../lib/stats.js'

export async function amountGates({ install, quick, log }) {
  const cases = 300
  const repetitions = quick ? 500 : 2000
  log(`amount gates: simulating ${repetitions} A/A and 20%-rise pairs of ${cases} cases, for cost and for latency`)
  const r = await runJsonChild(join(import.meta.dirname, 'amount-gate-child.js'), { pkg: install.pkg, cases, repetitions }, { nodeArgs: ['--max-old-space-size=4096'] })
  for (const line of r.text) log(line)
  const rows = []
  for (const [gate, name] of [
    ['cost_per_case', 'cost per case'],
    ['latency_per_case', 'latency per case'],
  ]) {
    rows.push(
      {
        figure: `13. ${name} gate, A/A false-alarm rate (${cases} cases, ${fmt.int(repetitions)} pairs, seed 42)`,
        value: fmt.pct(r[gate].aa.rate),
        goal: '≤ 5%',
        pass: r[gate].aa.rate <= 0.05,
      },
      {
        figure: `13. ${name} gate, power against a 20% rise (${cases} cases)`,
        value: fmt.pct(r[gate].power.rate),
        goal: '≥ 80%',
        pass: r[gate].power.rate >= 0.8,
      },
    )
  }
  return { rows, raw: r }
}
