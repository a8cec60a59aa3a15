// Figure 14: the gates at every size (issue 28, ADR 0120), by seeded simulation through compareRuns
// in a child process: the pass-rate gate's A/A false alarms at 5 to 300 cases, now and with the
// normal interval digline used before; the cost gate's false alarms and power as cases spread (σ 0.6, 1.5, 2.0).
import { join } from 'node:path'
import { runJsonChild } from '../lib/process.js'
import { fmt } from '../lib/stats.js'

export async function statistics({ install, quick, log }) {
  const repetitions = quick ? 1000 : 4000
  log(`gates at every size: simulating ${repetitions} A/A pairs at 5, 10, 20, 50 and 300 cases`)
  const r = await runJsonChild(join(import.meta.dirname, 'statistics-child.js'), { pkg: install.pkg, repetitions }, { nodeArgs: ['--max-old-space-size=4096'] })
  const rows = r.sizes.map((s) => ({
    figure: `14. pass-rate gate, A/A false alarms at ${s.cases} cases (${fmt.int(repetitions)} pairs, seed ${42 + s.cases})`,
    value: `${fmt.pct(s.rate)} (normal interval before: ${fmt.pct(s.beforeRate)}; "too few cases to judge": ${fmt.pct(s.tooFewRate)})`,
    goal: '≤ 2.5%',
    pass: s.rate <= 0.025,
  }))
  for (const s of r.spread) {
    rows.push(
      {
        figure: `14. cost gate (paired log-ratio), cases spread σ ${s.between}: A/A false alarms (300 cases, ${fmt.int(s.aa.repetitions)} pairs, seed 42)`,
        value: `${fmt.pct(s.aa.rate)} (difference over the baseline's mean before: ${fmt.pct(s.aa.beforeRate)}, its interval below −100% in ${fmt.pct(s.aa.beforeImpossibleRate)})`,
        goal: '≤ 2.5%',
        pass: s.aa.rate <= 0.025,
      },
      {
        figure: `14. cost gate (paired log-ratio), cases spread σ ${s.between}: power against a 20% rise (300 cases)`,
        value: `${fmt.pct(s.power.rate)} (before: ${fmt.pct(s.power.beforeRate)})`,
        goal: '≥ 80%',
        pass: s.power.rate >= 0.8,
      },
    )
  }
  const l = r.launch
  rows.push({
    figure: `14. ${l.suites} suites of ${l.cases} cases gated in one launch, A/A: launches where some suite fails (${fmt.int(l.launches)} launches, seed ${l.seed})`,
    value: `${fmt.pct(l.holmRate)} under Holm (each suite alone: ${fmt.pct(l.aloneRate)})`,
    goal: '≤ 2.5%',
    pass: l.holmRate <= 0.025,
  })
  const k = r.clusters
  rows.push({
    figure: `14. ${k.topics} topics × ${k.perTopic} cases, topic effects (logit sd ${k.spread}) that average to zero, A/A false alarms (${fmt.int(k.repetitions)} pairs, seed ${k.seed})`,
    value: `${fmt.pct(k.clusteredRate)} with cluster: topic (design effect ${k.meanDesignEffect.toFixed(2)}); cases taken as independent: ${fmt.pct(k.independentRate)}`,
    goal: '≤ 2.5%',
    pass: k.clusteredRate <= 0.025,
  })
  return { rows, raw: r }
}
