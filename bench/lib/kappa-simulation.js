// The coverage of the judge-agreement interval (ADR 0350) by seeded simulation: a judge whose
// verdicts match the people's with a known sensitivity and specificity has a known kappa; each
// repetition draws `labels` labels of it (with `perAnswer` people labelling each answer, whose
// labels share the answer's truth) and asks whether cohenKappa's interval holds the true kappa.

/** The true kappa of a judge with sensitivity `se` and specificity `sp` where a share `pi` of answers deserve a pass. */
export function trueKappa({ pi, se, sp }) {
  const a = pi * se // judge pass, person pass
  const b = (1 - pi) * (1 - sp) // judge pass, person fail
  const c = pi * (1 - se) // judge fail, person pass
  const d = (1 - pi) * sp
  const po = a + d
  const pe = (a + b) * (a + c) + (c + d) * (b + d)
  return (po - pe) / (1 - pe)
}

export function simulateKappaCoverage(digline, { labels, perAnswer = 1, pi, se, sp, repetitions, seed }) {
  const random = digline.seededRandom(seed)
  const truth = trueKappa({ pi, se, sp })
  let covered = 0
  let none = 0
  let width = 0
  for (let r = 0; r < repetitions; r++) {
    const pairs = []
    for (let u = 0; pairs.length < labels; u++) {
      // The answer deserves a pass or not; the judge's verdict is drawn once; each person sees the answer's truth.
      const human = random() < pi
      const judge = human ? random() < se : random() >= sp
      for (let k = 0; k < perAnswer && pairs.length < labels; k++) pairs.push({ unit: `u${u}`, judge, human })
    }
    const k = digline.cohenKappa(pairs)
    if (k.ci95 === null) {
      none++
      continue
    }
    width += k.ci95.high - k.ci95.low
    if (k.ci95.low <= truth && truth <= k.ci95.high) covered++
  }
  const judged = repetitions - none
  return { labels, perAnswer, pi, se, sp, truth, repetitions, seed, coverage: judged === 0 ? null : covered / judged, none, meanWidth: judged === 0 ? null : width / judged }
}

export function describeKappaCoverage(s) {
  return `${s.labels} labels (${s.perAnswer} per answer), true kappa ${s.truth.toFixed(2)} (pass share ${s.pi}, sensitivity ${s.se}, specificity ${s.sp}): interval covers it in ${(s.coverage * 100).toFixed(1)}% of ${s.repetitions - s.none} draws, mean width ${s.meanWidth.toFixed(2)}`
}
