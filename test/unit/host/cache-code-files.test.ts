// The code the target runs, as the response cache keys it (issue 23 item 5, ADR 0150): the suite file
// and the project modules it imports, found by their imports on a real temp directory; the values of
// evalSuite({…}) that cannot change an answer are left out of the suite file's hash.
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { codeFilesOf } from '../../../src/host/cache/code-files.js'
import { blankJudging, importSpecifiers } from '../../../src/host/cache/module-text.js'
import { cacheStoreFor, localCacheLocator } from '../../../src/host/cache/cache-store.js'
import { openStore } from '../../../src/store/open-store.js'

function project(files: Record<string, string>): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'digline-code-')))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

describe('importSpecifiers', () => {
  it('reads static, re-exported, side-effect, dynamic and required specifiers, and nothing in comments, strings or templates', () => {
    const text = `import a from './a.js'
import { b } from "../b"
import './side'
export * from './re'
export { c } from './c.ts'
const d = await import('./d')
const e = require('./e')
// import x from './commented'
/* import y from './block' */
const s = "import z from './in-a-string'"
const t = \`\${1 + 1} import w from './in-a-template'\`
const r = /from '.\\/regex'/
import type { T } from './types'
import { z } from 'zod'`
    expect(importSpecifiers(text)).toEqual(['./a.js', '../b', './side', './re', './c.ts', './d', './e', './types', 'zod'])
  })
})

describe('blankJudging', () => {
  const suite = (scorer: string, threshold: string, prompt: string, config = "{ model: 'm' }") => `import { evalSuite } from 'digline'
const PROMPT = '${prompt}'
evalSuite({
  name: 's',
  cases: [{ id: 'a', input: 1 }],
  target: { config: ${config}, async ask(input) { return PROMPT + input } },
  scorers: [{ name: 'x', score: ({ output }) => ${scorer} }],
  thresholds: { passRate: ${threshold} },
})
`
  it('leaves out scorers, thresholds, cases and target.config written inline, and keeps the target and the rest of the file', () => {
    const base = blankJudging(suite('output === 1', '0.5', 'Say'))
    expect(blankJudging(suite("output.startsWith('x')", '0.9', 'Say', "{ model: 'n', temperature: 1 }"))).toBe(base)
    expect(blankJudging(suite('output === 1', '0.5', 'Tell'))).not.toBe(base)
    expect(base).toContain('async ask(input) { return PROMPT + input }')
    expect(base).not.toContain('passRate')
  })
})

describe('codeFilesOf', () => {
  it('hashes the suite file and every project module it imports, transitively, and leaves node_modules and other files out', async () => {
    const root = project({
      'evals/a.eval.ts': "import { extract } from '../src/extract.js'\nimport 'pkg'\nimport data from './data.json'\n",
      'src/extract.ts': "export { trim } from './trim'\nexport const extract = 1\n",
      'src/trim/index.ts': "import x from '../../node_modules/pkg/index.js'\nexport const trim = 1\n",
      'evals/data.json': '{}',
      'src/unused.ts': 'export const unused = 1\n',
      'node_modules/pkg/index.js': 'export default 1\n',
    })
    const files = await codeFilesOf(join(root, 'evals/a.eval.ts'), root)
    expect(Object.keys(files)).toEqual(['evals/a.eval.ts', 'evals/data.json', 'src/extract.ts', 'src/trim/index.ts'])
    writeFileSync(join(root, 'src/trim/index.ts'), 'export const trim = 2\n')
    const after = await codeFilesOf(join(root, 'evals/a.eval.ts'), root)
    expect(Object.keys(after).filter((k) => after[k] !== files[k])).toEqual(['src/trim/index.ts'])
    expect(await codeFilesOf(undefined, root)).toEqual({})
  })
})

describe('cacheStoreFor', () => {
  it("keeps watch mode's default cache local beside a team store, and in the run's store when the suite asks or the store is files", () => {
    const root = project({})
    const team = openStore({ store: 'postgres://127.0.0.1:1/none' })
    const local = cacheStoreFor(team, 'postgres://127.0.0.1:1/none', root, 'watch')
    expect(local).not.toBe(team)
    expect(local.constructor.name).toBe('FileResultStore')
    expect(localCacheLocator(root)).toBe(join(root, '.digline'))
    expect(cacheStoreFor(team, 'postgres://127.0.0.1:1/none', root, 'asked')).toBe(team)
    const files = openStore({ store: join(root, '.digline') })
    expect(cacheStoreFor(files, join(root, '.digline'), root, 'watch')).toBe(files)
  })
})
