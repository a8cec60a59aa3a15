// Figure 16: adaptive samples (ADR 0360), by seeded simulation through compareRuns in a child
// process: the A/A false alarms of the pass-rate gate with samples { min, max }, its power against a
// per-sample drop beside fixed max samples (the same draws, so the same verdicts), and the calls it saves.
import { join } from 'node:path'
import { runJsonChild } from '../lib/process.js'
import { fmt } from '../lib/stats.js'

const CONFIGS = [
  { cases: 200, min: 2, max: 6, minAgreement: 4 / 6, fixed: 4, drop: 0.08, seed: 60 },
  { cases: 200, min: 1, max: 5, minAgreement: 1, fixed: 3, drop: 0.05, seed: 61 },
]

const agreement = (c) => (c.minAgreement === 1 ? 'minAgreement 1' : `minAgreement ${Math.round(c.minAgreement * c.max)}/${c.max}`)

export async function adaptiveSamples({ install, quick, log }) {
  const repetitions = quick ? 600 : 4000
  log(`adaptive samples: simulating ${repetitions} A/A pairs and ${Math.ceil(repetitions / 2)} pairs with a drop, per configuration`)
  const r = await runJsonChild(join(import.meta.dirname, 'adaptive-child.js'), { pkg: install.pkg, repetitions, configs: CONFIGS }, { nodeArgs: ['--max-old-space-size=4096'] })
  const rows = []
  for (const { aa, power } of r.configs) {
    const what = `samples { min: ${aa.min}, max: ${aa.max} }, ${agreement(aa)}, ${aa.cases} cases`
    const saved = 1 - power.adaptive.callsPerCase / aa.max
    rows.push(
      {
        figure: `16. ${what}: A/A false alarms (${fmt.int(aa.repetitions)} pairs, seed ${aa.seed})`,
        value: `${fmt.pct(aa.adaptive.rate)} (fixed ${aa.max} samples on the same draws: ${fmt.pct(aa.fixedMax.rate)}; verdicts that differ: ${aa.disagreements})`,
        goal: '≤ 2.5%',
        pass: aa.adaptive.rate <= 0.025 && aa.disagreements === 0,
      },
      {
        figure: `16. ${what}: power against a ${(power.drop * 100).toFixed(0)}-point per-sample drop, and calls (${fmt.int(power.repetitions)} pairs, seed ${power.seed})`,
        value: `${fmt.pct(power.adaptive.rate)} at ${power.adaptive.callsPerCase.toFixed(2)} calls a case; fixed ${power.max}: ${fmt.pct(power.fixedMax.rate)} at ${power.max}: ${fmt.pct(saved)} of the calls saved at equal power (fixed ${power.fixed}, about the same calls: ${fmt.pct(power.equalCalls.rate)})`,
        goal: 'power = fixed max; calls saved > 0',
        pass: power.adaptive.rate === power.fixedMax.rate && power.disagreements === 0 && saved > 0,
      },
    )
  }
  return { rows, raw: r }
}
