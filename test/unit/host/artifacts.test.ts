// Artifacts: plain paths and globs, each matched file hashed, in a stable order (code-point order of
// the matched paths, at the glob's place among the declared entries).
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { InvalidSuiteError } from '../../../src/suite/errors.js'
import { digestArtifacts } from '../../../src/host/launch/artifacts.js'
import { resolveSuite } from '../../../src/suite/resolve-suite.js'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'digline-artifacts-'))
  dirs.push(root)
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex')

describe('digestArtifacts', () => {
  test('a glob records every file it matches, in code-point order, each with its own sha256', async () => {
    const root = tree({ 'prompts/b.md': 'B', 'prompts/a.md': 'A', 'prompts/sub/Z.md': 'Z', 'prompts/notes.txt': 'no', 'data/cases.json': '[]' })
    const record = await digestArtifacts(['data/cases.json', 'prompts/**/*.md'], root, 'capitals')
    expect(Object.entries(record)).toEqual([
      ['data/cases.json', sha('[]')],
      ['prompts/a.md', sha('A')],
      ['prompts/b.md', sha('B')],
      ['prompts/sub/Z.md', sha('Z')],
    ])
  })

  test('a changed matched file changes its digest and nothing else', async () => {
    const root = tree({ 'prompts/a.md': 'A', 'prompts/b.md': 'B' })
    const before = await digestArtifacts(['prompts/*.md'], root, 's')
    writeFileSync(join(root, 'prompts', 'b.md'), 'B2')
    const after = await digestArtifacts(['prompts/*.md'], root, 's')
    expect(after).toEqual({ ...before, 'prompts/b.md': sha('B2') })
  })

  test('a glob that matches no file is refused by name, naming the entry', async () => {
    const root = tree({ 'prompts/a.txt': 'A' })
    const error = await digestArtifacts(['prompts/**/*.md'], root, 'capitals').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InvalidSuiteError)
    expect((error as Error).message).toContain('artifacts.0 (prompts/**/*.md) matches no file')
  })

  test('a plain path that cannot be read is refused as before; a file whose name looks like a glob is that file', async () => {
    const root = tree({ 'data/[draft].md': 'D' })
    expect(await digestArtifacts(['data/[draft].md'], root, 's')).toEqual({ 'data/[draft].md': sha('D') })
    const error = await digestArtifacts(['data/missing.md'], root, 's').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InvalidSuiteError)
    expect((error as Error).message).toContain('artifacts.0 (data/missing.md) cannot be read (ENOENT)')
  })
})

test('a negated glob is refused when the suite is resolved', () => {
  const suite = { name: 's', cases: [{ id: 'a', input: 1 }], target: async () => 1, scorers: [() => true], artifacts: ['!prompts/*.md'] }
  expect(() => resolveSuite(suite as never)).toThrow(/artifacts must not be a negated glob .* at suite\.artifacts\[0\]/)
})
