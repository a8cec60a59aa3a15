// The one test of `digline comment` with a real project: its Vitest config and suite file, read by
// `vitest list` as the command does when a case regressed, put each annotation on the line of the
// suite file that names the case. The runs are filed by hand (no suite is run).
import { expect, test } from 'vitest'
import { join } from 'node:path'
import { main } from '../../../src/cli/main.js'
import { openStore } from '../../../src/store/open-store.js'
import { makeProject } from '../../helpers/project.js'
import { makeRun, promoteFirst } from '../../helpers/make-run.js'
import { startForgeServer } from './forge-server.js'

const TOKEN = 'ghs_SUITE-FILE-TOKEN'

const SUITE = `import { evalSuite, scorers } from 'digline'

evalSuite({
  name: 'capitals',
  cases: [
${Array.from({ length: 8 }, (_, i) => `    { id: 'case-${String(i).padStart(5, '0')}', input: ${i}, expected: ${i} },`).join('\n')}
  ],
  target: { config: { model: 'geo-v1' }, ask: (i) => ({ output: i }) },
  scorers: [scorers.exact()],
})
`

test('annotations point at the line of the suite file that names each regressed case', async () => {
  const project = makeProject({ 'evals/capitals.eval.ts': SUITE })
  const store = openStore({ store: join(project.dir, '.digline') })
  const base = makeRun({ results: 8, createdAt: '2026-11-29T10:00:00.000001Z' })
  await store.writeRun(base)
  await promoteFirst(store, base, '2026-11-29T11:00:00.000001Z')
  const worse = makeRun({ results: 8, createdAt: '2026-11-30T10:00:00.000001Z' })
  for (const i of [1, 5])
    worse.results[i] = { ...worse.results[i]!, verdict: 'fail', score: 0, passed_samples: 0, samples: [{ ...worse.results[i]!.samples[0]!, pass: false, score: 0 }] }
  await store.writeRun(worse)
  await store.close?.()

  const server = await startForgeServer(TOKEN)
  try {
    const out: string[] = []
    const env = {
      GITHUB_TOKEN: TOKEN,
      GITHUB_REPOSITORY: 'acme/evals',
      GITHUB_REF: 'refs/pull/3/merge',
      GITHUB_SHA: 'd'.repeat(40),
      GITHUB_API_URL: server.url,
      GITHUB_WORKSPACE: project.dir,
    }
    const code = await main(['comment'], { cwd: project.dir, env, stdout: (t) => out.push(t), stderr: (t) => out.push(t) })
    expect(code, out.join('\n')).toBe(0)
    const annotations = (server.checkRuns[0]!.body.output as { annotations: { path: string; start_line: number; annotation_level: string }[] }).annotations
    // line 6 holds case-00000; the cases follow one a line
    expect(annotations.map((a) => [a.path, a.start_line])).toEqual([
      ['evals/capitals.eval.ts', 7],
      ['evals/capitals.eval.ts', 11],
    ])
    expect(out.join('\n')).not.toContain(TOKEN)
  } finally {
    await server.close()
  }
})
