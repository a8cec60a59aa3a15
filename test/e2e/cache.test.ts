// The response cache (SPEC §14): a target answer is reused while the case input, the target config,
// the sample index, the artifacts and the code the target runs are unchanged; a run that used cached answers says how many,
// is marked so, and is never promoted; `digline cache why` names the part of the key that changed.
// Real `vitest --watch`, `vitest run` and `digline` processes on a real store. `cache why`, `cache
// clear` and `run --no-cache` go through the bin once each; the promote refusal, the other `cache why`
// and `delete` are the CLI's main() in-process (ADR 0470, 0505). The watch test's project (the cache on
// by default there) goes on to show the input edit, the marked run, `cache why`, `--no-cache` and
// `cache clear` in turn, its cache on by DIGLINE_CACHE=1; the code-key suite turns it on by `cache:
// true` (ADR 0525).
import { spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { installRoot, makeProject, type Project } from '../helpers/project.js'
import { inProcess } from './cli-in-process.js'

interface Shape {
  inputs?: string[]
  model?: string
  check?: string
}

const INPUTS = ['paris', 'rome', 'oslo', 'lima', 'bern', 'kyiv']

function suite({ inputs = INPUTS, model = 'up-v1', check = "output === 'ANSWER-' + expected" }: Shape = {}): string {
  return `import { evalSuite } from 'digline'
import { appendFileSync } from 'node:fs'

evalSuite({
  name: 'cached',
  cases: ${JSON.stringify(inputs)}.map((input, i) => ({ id: 'c' + i, input, expected: input.toUpperCase() })),
  target: {
    config: { model: ${JSON.stringify(model)}, note: 'RAW-CONFIG-VALUE-123' },
    async ask(input, ctx) {
      appendFileSync('calls.log', ctx.caseId + ':' + ctx.sample + '\\n')
      return { output: 'ANSWER-' + input.toUpperCase(), model: 'up-1' }
    },
  },
  samples: 2,
  scorers: [{ name: 'shout', score: ({ output, expected }) => ${check} }],
  concurrency: 4,
})
`
}

function calls(project: Project): string[] {
  const file = join(project.dir, 'calls.log')
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean) : []
}

function runDocuments(project: Project): Record<string, unknown>[] {
  const dir = join(project.dir, '.digline', 'acme', 'runs', 'cached')
  return project.runFiles('acme', 'cached').map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Record<string, unknown>)
}

function cacheFiles(project: Project): string[] {
  const root = join(project.dir, '.digline', 'acme', 'cache')
  if (!existsSync(root)) return []
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'))
}

async function until(what: string, condition: () => boolean, ms = 120_000): Promise<void> {
  const end = Date.now() + ms
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

const ON = { DIGLINE_CACHE: '1' }

/** The watch test's project once its `vitest --watch` is gone: 12 calls, a plain run and a re-judged one. */
let watched: Project | undefined

describe('the response cache', () => {
  test('under a real `vitest --watch`, saving an edited scorer re-judges every case with zero target calls', async () => {
    const project = makeProject({ 'evals/cached.eval.ts': suite() })
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(VITEST|TEST$|NODE_ENV$|DIGLINE_|CI$)/.test(k)))
    const child = spawn(process.execPath, [join(installRoot(), 'node_modules', 'vitest', 'vitest.mjs'), '--watch'], {
      cwd: project.dir,
      env: { ...env, NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    })
    const exited = new Promise((resolve) => child.once('exit', resolve))
    let output = ''
    child.stdout.on('data', (d) => (output += d))
    child.stderr.on('data', (d) => (output += d))
    try {
      await until('the first run document', () => runDocuments(project).length === 1)
      expect(calls(project), output).toHaveLength(12)
      await until('the first run to settle', () => output.includes('exit 0'))
      project.write('evals/cached.eval.ts', suite({ check: "output.endsWith(expected) && output.startsWith('ANSWER-')" }))
      await until('the second run document', () => runDocuments(project).length === 2)
      expect(calls(project), output).toHaveLength(12)
      const docs = runDocuments(project)
      expect(docs.map((d) => d.cached_answers).sort()).toEqual([12, undefined])
      await until('the second outcome', () => output.includes('12 answers came from the response cache'))
    } finally {
      try {
        process.kill(-child.pid!, 'SIGKILL')
      } catch {
        // already gone
      }
    }
    await exited
    watched = project
  }, 300_000)

  test('an edit of one case input calls exactly that case; the cached run is marked, keeps no answer in its document, and promote refuses it; `digline cache why` names the part of the key that changed; `cache clear` and `--no-cache` make every call again', async () => {
    // The watch's first run (exit 0, 12 calls) filled the cache; from here DIGLINE_CACHE=1 keeps it on.
    const project = watched!
    expect(calls(project)).toHaveLength(12)
    const [firstDoc] = runDocuments(project)
    expect(firstDoc).not.toHaveProperty('cached_answers')
    const viaBin = await project.digline(['cache', 'why', '--suite', 'cached', '--case', 'c0', '--sample', '1'])
    expect(viaBin.code, viaBin.stdout + viaBin.stderr).toBe(0)
    expect(viaBin.stdout).toContain('case c0 of suite cached, sample 1: cached')

    const edited = [...INPUTS]
    edited[3] = 'quito'
    project.write('evals/cached.eval.ts', suite({ inputs: edited }))
    const second = await project.vitest([], ON)
    expect(second.code, second.stdout + second.stderr).toBe(0)
    expect(calls(project).slice(12).sort()).toEqual(['c3:0', 'c3:1'])
    expect(second.stderr).toContain('6 of 6 cases × 2 samples = 2 calls to the target (10 more answers from the response cache')
    expect(second.stdout).toContain('10 answers came from the response cache')
    const secondDoc = runDocuments(project).at(-1)!
    expect(secondDoc.cached_answers).toBe(10)

    // Cached answers are answers: in the cache (never committed), not in a document that does not record responses.
    const texts = project.runFiles('acme', 'cached').map((f) => readFileSync(join(project.dir, '.digline', 'acme', 'runs', 'cached', f), 'utf8'))
    for (const text of texts) expect(text).not.toContain('ANSWER-')
    const cache = cacheFiles(project)
    expect(cache).toHaveLength(14)
    expect(cache.join('\n')).toContain('ANSWER-QUITO')
    expect(cache.join('\n')).not.toContain('RAW-CONFIG-VALUE-123')
    expect(cache.join('\n')).not.toContain('"quito"')

    const secondKey = project.runFiles('acme', 'cached').at(-1)!.replace('.json', '')
    expect(texts.at(-1)).toContain('"cached_answers"')
    const refused = await inProcess(project, ['promote', '--suite', 'cached', '--run', secondKey])
    expect(refused.code, refused.stdout + refused.stderr).toBe(64)
    expect(refused.stderr).toContain('CachedRunNotPromotableError')
    expect(refused.stderr).toContain('digline run --no-cache')

    const why = async (...args: string[]) => {
      const r = await inProcess(project, ['cache', 'why', '--suite', 'cached', ...args])
      expect(r.code, r.stdout + r.stderr).toBe(0)
      return r.stdout
    }
    // One miss through the suite file as Vitest collects it, naming the two parts it reads from there
    // (the input, the target config); each part's own row is in test/unit/host/cache-why.test.ts.
    const missed = [...edited]
    missed[2] = 'oslo, norway'
    project.write('evals/cached.eval.ts', suite({ inputs: missed, model: 'up-v2' }))
    expect(await why('--case', 'c2')).toMatch(/a cache miss\. Since the answer cached at .* \(sample 0\), the case input, the target config changed/)

    project.write('evals/cached.eval.ts', suite({ inputs: edited }))
    const off = await project.digline(['run', '--no-cache'])
    expect(off.code, off.stdout + off.stderr).toBe(0)
    expect(calls(project)).toHaveLength(26)
    const cleared = await project.digline(['cache', 'clear', '--suite', 'cached'])
    expect(cleared.code, cleared.stdout + cleared.stderr).toBe(0)
    expect(cleared.stdout).toContain('Removed 14 cached answers of suite cached')
    expect(await why('--case', 'c0')).toContain('nothing is cached for this case')
    const refilled = await project.vitest([], ON)
    expect(refilled.code, refilled.stdout + refilled.stderr).toBe(0)
    expect(calls(project)).toHaveLength(38)
    // of the five runs, only the watch's re-run and the input edit took answers from the cache
    expect(runDocuments(project).map((d) => d.cached_answers ?? 0)).toEqual([0, 12, 10, 0, 0])
  }, 600_000)

  test('the key covers the code the target runs: an edit of an imported module or an inline prompt calls again and `cache why` names the file; a scorer edit does not; deleting the run removes its answers', async () => {
    const codeSuite = (prompt: string, check: string) => `import { evalSuite } from 'digline'
import { appendFileSync } from 'node:fs'
import { extract } from '../src/extract.js'

const PROMPT = ${JSON.stringify(prompt)}

evalSuite({
  name: 'cached',
  cases: ['paris', 'rome', 'oslo'].map((input, i) => ({ id: 'c' + i, input })),
  target: {
    config: { model: 'up-v1' },
    async ask(input, ctx) {
      appendFileSync('calls.log', ctx.caseId + ':' + ctx.sample + '\\n')
      return { output: extract(PROMPT + input), model: 'up-1' }
    },
  },
  scorers: [{ name: 'shout', score: ({ output }) => ${check} }],
  thresholds: { passRate: 0 },
  cache: true,
})
`
    const project = makeProject({
      'evals/cached.eval.ts': codeSuite('Say: ', "output.startsWith('SAY')"),
      'src/extract.ts': "import { trim } from './trim'\nexport const extract = (text: string): string => trim(text).toUpperCase()\n",
      'src/trim.ts': 'export const trim = (text: string): string => text.trim()\n',
    })
    const run = async () => {
      const r = await project.vitest([])
      expect(r.code, r.stdout + r.stderr).toBe(0)
      return r
    }
    const why = async () => {
      const r = await inProcess(project, ['cache', 'why', '--suite', 'cached', '--case', 'c1'])
      expect(r.code, r.stdout + r.stderr).toBe(0)
      return r.stdout
    }
    const first = await run()
    expect(calls(project)).toHaveLength(3)
    expect(first.stderr).toContain("the response cache keeps the target's answers while it is on, though this suite records no responses")

    // A module two imports away from the suite file.
    project.write('src/trim.ts', "export const trim = (text: string): string => text.trim() + '!'\n")
    expect(await why()).toContain('the code the target runs (src/trim.ts) changed')
    await run()
    expect(calls(project)).toHaveLength(6)

    // An inline prompt in the suite file.
    project.write('evals/cached.eval.ts', codeSuite('Tell: ', "output.startsWith('SAY')"))
    expect(await why()).toContain('the code the target runs (evals/cached.eval.ts) changed')
    await run()
    expect(calls(project)).toHaveLength(9)

    // A scorer and a threshold are not code the target runs.
    project.write('evals/cached.eval.ts', codeSuite('Tell: ', "output.startsWith('TELL')").replace('passRate: 0', 'passRate: 0.5'))
    expect(await why()).toContain('sample 0: cached')
    const judgedAgain = await run()
    expect(calls(project)).toHaveLength(9)
    expect(judgedAgain.stdout).toContain('3 answers came from the response cache')

    // SPEC §7: deleting the run that asked for answers removes them from the cache.
    const keys = project.runFiles('acme', 'cached').map((f) => f.replace('.json', ''))
    expect(keys).toHaveLength(4)
    expect(cacheFiles(project)).toHaveLength(9)
    const deleted = await inProcess(project, ['delete', '--suite', 'cached', '--run', keys[2]!])
    expect(deleted.code, deleted.stdout + deleted.stderr).toBe(0)
    expect(cacheFiles(project)).toHaveLength(6)
    expect(cacheFiles(project).join('\n')).not.toContain('TELL: ')
  }, 400_000)
})
