// The page script's figures, run as the page runs them (the functions are taken from the script's
// own text): a tolerance of zero reads "tolerance 0.0", never "tolerance −0.0" (issue 23 item 20).
import { describe, expect, test } from 'vitest'
import { PAGE_SCRIPT } from '../../../src/report/page-script.js'

/** The text of one top-level function of the page script. */
function functionText(name: string): string {
  const start = PAGE_SCRIPT.indexOf(`\n  function ${name}(`)
  if (start < 0) throw new Error(`the page script has no function ${name}`)
  const oneLine = PAGE_SCRIPT.indexOf('\n', start + 1)
  const line = PAGE_SCRIPT.slice(start, oneLine)
  if (line.trimEnd().endsWith('}')) return line
  return PAGE_SCRIPT.slice(start, PAGE_SCRIPT.indexOf('\n  }\n', start) + 4)
}

interface Drawn {
  tag: string
  attrs: Record<string, unknown>
  kids: Drawn[]
  appendChild(child: Drawn): void
}

function pageFunctions(): { differenceChart: (item: unknown) => Drawn; differenceText: (item: unknown) => string } {
  const names = ['signed', 'pts', 'differenceChart', 'differenceText']
  const present = names.filter((n) => PAGE_SCRIPT.includes(`\n  function ${n}(`))
  const body = `${present.map(functionText).join('\n')}\nreturn { differenceChart: differenceChart, differenceText: differenceText }`
  const svg = (tag: string, attrs: Record<string, unknown>): Drawn => {
    const node: Drawn = { tag, attrs, kids: [], appendChild: (child) => void node.kids.push(child) }
    return node
  }
  // The page's own code, run as the browser runs it.
  return new Function('svg', body)(svg) as ReturnType<typeof pageFunctions>
}

const texts = (node: Drawn): string[] => [...(typeof node.attrs.text === 'string' ? [node.attrs.text] : []), ...node.kids.flatMap(texts)]

describe('the figures of a comparison', () => {
  test('a tolerance of zero has no minus sign, in the chart and in the sentence', () => {
    const { differenceChart, differenceText } = pageFunctions()
    const item = { label: 'pass rate', d: { mean: -0.02, ci95: { low: -0.05, high: 0.01 }, n: 40 }, tolerance: 0, scale: 100 }
    expect(texts(differenceChart(item))).toContain('tolerance 0.0')
    expect(differenceText(item)).toBe('pass rate: \u22122.0 points, 95% interval [\u22125.0 points, +1.0 points] over 40 shared cases; tolerance 0.0 points')
    const score = { label: 'mean score', d: { mean: 0, ci95: null, n: 3 }, tolerance: 0, scale: 1 }
    expect(texts(differenceChart(score))).toContain('tolerance 0.000')
    expect(differenceText(score)).toBe('mean score: 0.000 (too few cases for an interval) over 3 shared cases; tolerance 0.000')
  })

  test('a tolerance above zero keeps its minus sign', () => {
    const { differenceChart } = pageFunctions()
    expect(texts(differenceChart({ label: 'pass rate', d: { mean: 0, ci95: null, n: 3 }, tolerance: 0.05, scale: 100 }))).toContain('tolerance \u22125.0')
  })
})

describe("the judges' agreement", () => {
  function agreementSection(s: unknown): Drawn | null {
    const node = (tag: string, attrs: Record<string, unknown>, children?: (Drawn | string | null)[]): Drawn => {
      const drawn: Drawn = { tag, attrs, kids: [], appendChild: (child) => void drawn.kids.push(child) }
      for (const c of children ?? []) if (c !== null) drawn.kids.push(typeof c === 'string' ? { tag: '#text', attrs: { text: c }, kids: [], appendChild: () => undefined } : c)
      return drawn
    }
    const section = (title: string, children: Drawn[]) => node('section', {}, [node('h3', { text: title }), ...children])
    return new Function('el', 'section', `${functionText('agreement')}\nreturn agreement`)(node, section)(s) as Drawn | null
  }

  test('a table row per judge with kappa, interval, labels and the calibration; the reason a run was not judged above it', () => {
    const shown = agreementSection({
      not_judged: 'the judge is not calibrated: 18 missing',
      agreement: [
        { judge: 'factuality', kappa: 0.7412, ci95: { low: 0.52, high: 0.91 }, labels: 36, units: 31, observed: 0.889, calibrated: true, why: null },
        { judge: 'relevance', kappa: null, ci95: null, labels: 12, units: 12, observed: 1, calibrated: false, why: '12 of the 30 labels it needs (18 missing)' },
      ],
    })!
    const text = texts(shown)
    expect(text).toContain('Judges against human labels')
    expect(text).toEqual(expect.arrayContaining(['factuality', '0.74', '0.52 \u2013 0.91', '36', '31', '89%', 'calibrated']))
    expect(text).toEqual(expect.arrayContaining(['relevance', 'n/a', 'not calibrated: 12 of the 30 labels it needs (18 missing)']))
    expect(text).toContain('the judge is not calibrated: 18 missing')
    expect(agreementSection({ agreement: [] })).toBeNull()
  })
})
