// The code a suite's target runs, as the response cache keys it (SPEC §14, docs/adr/0150): the suite
// file and every project module it imports, transitively, found by reading each file's static
// imports, re-exports, literal `import()` and `require()` and resolving the relative ones as Vite
// does for TypeScript (`./extract.js` may be `./extract.ts`). Bare specifiers (packages, node:
// builtins) and anything under node_modules or outside the project root are left out. Each file
// is hashed once per launch, by its bytes, except that the suite file's scorer and gate values are
// blanked first: editing a scorer, a rubric or a threshold costs no calls (see blankJudging).
import { createHash } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path'
import type { CodeFiles } from '../../suite/cache-key.js'
import { blankJudging, importSpecifiers } from './module-text.js'

const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '.json']
/** TypeScript's own rule: an import written with a JS extension names the TS file beside it. */
const TS_FOR_JS: Record<string, string[]> = { '.js': ['.ts', '.tsx'], '.jsx': ['.tsx'], '.mjs': ['.mts'], '.cjs': ['.cts'] }
/** Beyond this many files the walk stops; the files found so far still key the cache. */
const MAX_FILES = 2000

/** path relative to root → sha256, in code-point order of the paths; empty when the suite file is not known. */
export async function codeFilesOf(suiteFile: string | undefined, root: string): Promise<CodeFiles> {
  if (suiteFile === undefined) return {}
  const found = new Map<string, string>()
  const queue = [resolve(suiteFile)]
  while (queue.length > 0 && found.size < MAX_FILES) {
    const file = queue.shift()!
    const name = projectPath(file, root)
    if (name === undefined || found.has(name)) continue
    let text: string
    try {
      text = await readFile(file, 'utf8')
    } catch {
      continue
    }
    const hashed = file === resolve(suiteFile) ? blankJudging(text) : text
    found.set(name, createHash('sha256').update(hashed).digest('hex'))
    if (file.endsWith('.json')) continue
    for (const specifier of importSpecifiers(text)) {
      if (!specifier.startsWith('./') && !specifier.startsWith('../')) continue
      const target = await resolveRelative(dirname(file), specifier.replace(/[?#].*$/, ''))
      if (target !== undefined) queue.push(target)
    }
  }
  return Object.fromEntries([...found].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}

/** The path of `file` relative to `root` with `/` separators, or undefined outside it or in node_modules. */
function projectPath(file: string, root: string): string | undefined {
  const rel = relative(root, file)
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return undefined
  const parts = rel.split(sep)
  if (parts.includes('node_modules')) return undefined
  return parts.join('/')
}

async function resolveRelative(from: string, specifier: string): Promise<string | undefined> {
  const base = resolve(from, specifier)
  const ext = EXTENSIONS.find((e) => base.endsWith(e))
  const candidates = [
    ...(ext === undefined ? [] : (TS_FOR_JS[ext] ?? []).map((ts) => base.slice(0, -ext.length) + ts)),
    base,
    ...EXTENSIONS.map((e) => base + e),
    ...EXTENSIONS.map((e) => resolve(base, `index${e}`)),
  ]
  for (const candidate of candidates) if (await isFile(candidate)) return candidate
  return undefined
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  )
}
