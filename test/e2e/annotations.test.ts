// Issue 15 item 3 with real Vitest processes: each case's test carries its verdict, score and reason
// as Vitest test annotations, which Vitest's own JUnit reporter writes as properties and its JSON
// reporter as the test's meta; a failing case the thresholds allow says FAIL there, though its
// test is green. Nothing is quoted that the run document does not keep (recordResponses false), and
// a `--merge-reports` replay shows each annotation once and writes nothing to the store.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { countingSuite, makeProject } from '../helpers/project.js'
import { snapshotTree } from '../store/tree-snapshot.js'

const AT = '2026-05-01T08:00:00.000001Z'
const SECRET = 'SECRET-ANSWER'

function suiteFile(): string {
  // c001 answers wrong (a failing case); the thresholds allow one failure in four.
  return countingSuite({ name: 'annotated', cases: 4, answer: `i === 1 ? '${SECRET}-' + i : 'ok-' + i`, thresholds: '{ passRate: 0.5 }' })
}

/** The <property> name/value pairs of one test case of a JUnit file. */
function junitProperties(xml: string, suite: string, name: string): [string, string][] {
  const start = xml.indexOf(`name="${suite} &gt; ${name}"`)
  expect(start, `test case ${name} in the JUnit output:\n${xml.slice(0, 3000)}`).toBeGreaterThan(-1)
  const block = xml.slice(start, xml.indexOf('</testcase>', start))
  return [...block.matchAll(/<property name="([^"]*)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!])
}

interface JsonAssertion {
  title: string
  status: string
  meta: { digline?: { kind: string; case?: { case_id: string; verdict: string; score: number | null; reason: string | null } } }
}

test('JUnit and JSON reporters show each case verdict, score and reason; a merge-reports replay shows them once and writes nothing', async () => {
  const project = makeProject({ 'evals/annotated.eval.ts': suiteFile() })
  const env = { DIGLINE_CREATED_AT: AT }
  const run = await project.vitest(
    ['--reporter=junit', '--outputFile.junit=junit.xml', '--reporter=json', '--outputFile.json=report.json', '--reporter=blob', '--outputFile.blob=blobs/blob.json'],
    env,
  )
  expect(run.code, run.stdout + run.stderr).toBe(0)

  const xml = project.read('junit.xml')
  expect(junitProperties(xml, 'annotated', 'c000')).toEqual([
    ['digline.verdict', 'pass: 1 of 1 sample passed'],
    ['digline.score', '1'],
  ])
  const failing = junitProperties(xml, 'annotated', 'c001')
  expect(failing[0]![0]).toBe('digline.verdict')
  expect(failing[0]![1]).toMatch(/^FAIL: 0 of 1 sample passed; the case failed, and its test stays green/)
  expect(failing.slice(1).map(([name]) => name)).toEqual(['digline.score', 'digline.reason'])
  expect(failing[1]![1]).toBe('0')
  // The failing case's test is green (ADR 0001): no <failure> element in its test case.
  const at = xml.indexOf('name="annotated &gt; c001"')
  const c001 = xml.slice(at, xml.indexOf('</testcase>', at))
  expect(c001).not.toContain('<failure')
  const suite = junitProperties(xml, 'annotated', 'digline verdict')
  expect(suite).toHaveLength(1)
  expect(suite[0]![0]).toBe('digline.suite')
  expect(suite[0]![1]).toMatch(/^held: pass rate 75\.0% \[[\d.]+%, [\d.]+%\] over 4 case\(s\); 1 failing case\(s\), allowed by the thresholds; run \S+$/)

  // The reason is the run document's own reason, and with recordResponses false it quotes no answer.
  const doc = JSON.parse(readFileSync(join(project.dir, '.digline', 'acme', 'runs', 'annotated', project.runFiles('acme', 'annotated')[0]!), 'utf8')) as {
    results: { case_id: string; reason: string | null }[]
  }
  const reason = doc.results.find((r) => r.case_id === 'c001')!.reason!
  expect(failing[2]![1]).toBe(reason.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll("'", '&apos;'))
  expect(xml).not.toContain(SECRET)

  const json = JSON.parse(project.read('report.json')) as { testResults: { assertionResults: JsonAssertion[] }[] }
  const assertions = json.testResults.flatMap((r) => r.assertionResults)
  const fail = assertions.find((a) => a.title === 'c001')!
  expect(fail.status).toBe('passed')
  expect(fail.meta.digline?.case).toEqual({ case_id: 'c001', verdict: 'fail', score: 0, reason })
  expect(assertions.find((a) => a.title === 'c000')!.meta.digline?.case?.verdict).toBe('pass')
  expect(project.read('report.json')).not.toContain(SECRET)

  // Replaying the blob: the same annotations, each once, and the store and the target untouched.
  const before = snapshotTree(join(project.dir, '.digline'))
  const calls = project.read('calls.log')
  const merged = await project.vitest(['--merge-reports=blobs', '--reporter=junit', '--outputFile.junit=merged.xml'], env)
  expect(merged.code, merged.stdout + merged.stderr).toBe(0)
  const mergedXml = project.read('merged.xml')
  for (const name of ['c000', 'c001', 'c002', 'c003', 'digline verdict']) expect(junitProperties(mergedXml, 'annotated', name)).toEqual(junitProperties(xml, 'annotated', name))
  expect(mergedXml.match(/name="digline\.verdict"/g)).toHaveLength(4)
  expect(snapshotTree(join(project.dir, '.digline'))).toEqual(before)
  expect(project.read('calls.log')).toBe(calls)
})

test('an errored case says ERROR with its cause and message, on the red test, once however often Vitest retries it', async () => {
  const project = makeProject({
    'evals/broken.eval.ts': countingSuite({ name: 'broken', cases: 2, extra: '' }).replace(
      'const sample = ctx.sample',
      "const sample = ctx.sample\n      if (i === 1) throw new Error('the target broke on purpose')",
    ),
  })
  const run = await project.vitest(['--reporter=junit', '--outputFile.junit=junit.xml', '--retry=2'], { DIGLINE_CREATED_AT: AT })
  expect(run.code, run.stdout + run.stderr).toBe(2)
  const xml = project.read('junit.xml')
  const props = junitProperties(xml, 'broken', 'c001')
  expect(props[0]).toEqual(['digline.verdict', 'ERROR (cause: target): the case could not be judged'])
  expect(props.map(([name]) => name)).toEqual(['digline.verdict', 'digline.reason'])
  expect(props.find(([name]) => name === 'digline.reason')?.[1]).toMatch(/the target broke on purpose/)
})

// docs/adr/0080: the annotations ride in the test's meta instead of three awaited round trips per
// case, each of which also forced Vitest's throttled task update out at once. A reporter listed
// after the plugin's sees them as before: live, and on the test when its result arrives.
const PROBE = `import { writeFileSync } from 'node:fs'

let updates = 0
const atResult = {}
const live = {}
export default class Probe {
  onTaskUpdate() { updates++ }
  onTestCaseAnnotate(test, annotation) { (live[test.name] ??= []).push(annotation.type) }
  onTestCaseResult(test) { atResult[test.name] = test.annotations().map((a) => a.type) }
  onTestRunEnd(modules) {
    const metaKeys = [...modules[0].children.allTests()].map((t) => Object.keys(t.meta().digline ?? {}).sort().join(','))
    writeFileSync('probe.json', JSON.stringify({ updates, atResult, live, metaKeys: [...new Set(metaKeys)] }))
  }
}
`

test('annotations reach every reporter without a round trip per case: no forced task update per case, and the meta keeps its shape', async () => {
  const cases = 400
  const project = makeProject({ 'evals/many.eval.ts': countingSuite({ name: 'many', cases, concurrency: 1 }), 'probe-reporter.js': PROBE })
  const run = await project.vitest(['--reporter=./probe-reporter.js', '--reporter=verbose'], { DIGLINE_CREATED_AT: AT })
  expect(run.code, run.stdout + run.stderr).toBe(0)
  const probe = JSON.parse(project.read('probe.json')) as { updates: number; atResult: Record<string, string[]>; live: Record<string, string[]>; metaKeys: string[] }
  expect(probe.atResult['c000']).toEqual(['digline.verdict', 'digline.score'])
  expect(probe.live['c399']).toEqual(['digline.verdict', 'digline.score'])
  expect(probe.atResult['digline verdict']).toEqual(['digline.suite'])
  expect(Object.values(probe.atResult).filter((types) => types[0] === 'digline.verdict')).toHaveLength(cases)
  expect(probe.metaKeys.sort()).toEqual(['case,kind,suite', 'kind,outcome'])
  // With an annotate() per case, Vitest sent at least one task update per case.
  expect(probe.updates).toBeLessThan(cases / 2)
  expect(run.stdout).toMatch(/c000[\s\S]*digline\.verdict[\s\S]*pass: 1 of 1 sample passed/)
})
