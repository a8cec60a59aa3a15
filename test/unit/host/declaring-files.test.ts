// The files a one-suite command lists first (ADR 0500): those that call evalSuite and name the suite
// in a string literal; nothing to narrow to when a suite is named by no such file.
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { expect, it } from 'vitest'
import { likelyDeclaringFiles } from '../../../src/host/launch/declaring-files.js'

function project(files: Record<string, string>): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'digline-declaring-')))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

const declares = (name: string) => `import { evalSuite } from 'digline'\nevalSuite({ name: ${name}, cases: [], target: async () => 1, scorers: [] })\n`

it('names the files that call evalSuite with the suite as a literal, in any quotes, and a variant by its suite', () => {
  const root = project({
    'evals/caps.eval.ts': declares(`"caps"`),
    'evals/caps-too.eval.ts': declares('`caps`'),
    'evals/rivers.eval.ts': declares(`'rivers'`),
    'evals/pick.eval.ts': declares(`'pick'`),
    'evals/names.ts': `export const CAPS = 'caps'\n`,
    'evals/capsule.eval.ts': declares(`'capsule'`),
    'node_modules/x/caps.eval.ts': declares(`'caps'`),
    '.hidden/caps.eval.ts': declares(`'caps'`),
    'evals/caps.json': `{"name": "caps", "evalSuite": true}`,
    '-rivers.eval.ts': declares(`'rivers'`),
  })
  expect(likelyDeclaringFiles(root, ['caps'])).toEqual(['evals/caps-too.eval.ts', 'evals/caps.eval.ts'])
  expect(likelyDeclaringFiles(root, ['caps', 'rivers'])).toEqual(['./-rivers.eval.ts', 'evals/caps-too.eval.ts', 'evals/caps.eval.ts', 'evals/rivers.eval.ts'])
  expect(likelyDeclaringFiles(root, ['pick.small'])).toEqual(['evals/pick.eval.ts'])
})

it('has nothing to narrow to when a suite is named by no file that calls evalSuite: a moved suite whose name is computed', () => {
  const root = project({
    'evals/caps.eval.ts': `// suite 'caps' moved to moved.eval.ts\n${declares(`'renamed'`)}`,
    'evals/moved.eval.ts': `import { CAPS } from './names'\n${declares('CAPS')}`,
    'evals/names.ts': `export const CAPS = 'caps'\n`,
    'evals/rivers.eval.ts': declares(`'rivers'`),
  })
  // The old file still names it: listed first, it declares no suite caps, so every file is listed next.
  expect(likelyDeclaringFiles(root, ['caps'])).toEqual(['evals/caps.eval.ts'])
  expect(likelyDeclaringFiles(root, ['caps', 'gone'])).toBeUndefined()
  expect(likelyDeclaringFiles(root, ['gone'])).toBeUndefined()
})
