// Figure 18: three variants in one launch (SPEC §15, ADR 0301), by seeded simulation through
// compareVariants: an A/A pair is called "no difference" at least 1 − 5%/3 of the time, the three
// pairs of three equal variants claim a difference at most 5% of the time, and a real lift is found.
import { join } from 'node:path'
import { runJsonChild } from '../lib/process.js'
import { fmt } from '../lib/stats.js'

export async function variants({ install, quick, log }) {
  const launches = quick ? 2000 : 10000
  log(`variants: simulating ${launches} launches of three variants over 100 cases, twice`)
  const r = await runJsonChild(join(import.meta.dirname, 'variants-child.js'), { pkg: install.pkg, launches })
  const { equal, lifted } = r
  return {
    rows: [
      {
        figure: `18. three equal variants, 100 cases: the A/A pair called "no difference" (${fmt.int(launches)} launches, seed ${equal.seed})`,
        value: fmt.pct(equal.aaNoDifferenceRate),
        goal: '≥ 98.3% (1 − 5%/3)',
        pass: equal.aaNoDifferenceRate >= 1 - 0.05 / 3,
      },
      {
        figure: `18. three equal variants, 100 cases: launches where some pair is called different (family-wise)`,
        value: fmt.pct(equal.anyClaimRate),
        goal: '≤ 5%',
        pass: equal.anyClaimRate <= 0.05,
      },
      {
        figure: `18. one variant lifted 60% of the way to always passing, 100 cases: its pairs called the right way (${fmt.int(launches)} launches, seed ${lifted.seed})`,
        value: `${fmt.pct(lifted.rightRate)} (the wrong way: ${fmt.pct(lifted.wrongRate)}; the A/A pair "no difference": ${fmt.pct(lifted.aaNoDifferenceRate)})`,
        goal: '≥ 80%, wrong way ≤ 0.1%',
        pass: lifted.rightRate >= 0.8 && lifted.wrongRate <= 0.001,
      },
    ],
    raw: r,
  }
}
