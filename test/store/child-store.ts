// Runs the store in a child node process as another user (root bypasses file permissions, so a
// permission error needs a process that is not root). The store's sources are transpiled with the
// TypeScript compiler into a temp directory that the other user can read.
import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'

const REPO = resolve(import.meta.dirname, '..', '..')

/** The relative imports of a module, followed to every file they reach. */
function importClosure(entry: string): string[] {
  const seen = new Set<string>()
  const visit = (file: string): void => {
    if (seen.has(file)) return
    seen.add(file)
    const text = readFileSync(file, 'utf8')
    for (const match of text.matchAll(/from '(\.{1,2}\/[^']+)\.js'/g)) visit(resolve(dirname(file), `${match[1]}.ts`))
  }
  visit(entry)
  return [...seen]
}

export interface ChildStore {
  /** The compiled `src/store/index.js`, importable by the child. */
  storeModule: string
  /** Where the compiled form of a repository source file (one of `entries`, or a file it reaches) is. */
  compiled(source: string): string
  cleanup(): void
}

/** Compiles the store, and the child scripts named by `entries` (repository .ts files) with what they import. */
export function compileStoreForChild(entries: readonly string[] = []): ChildStore {
  const dir = mkdtempSync(join(tmpdir(), 'digline-child-'))
  chmodSync(dir, 0o755)
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'))
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n')
  const compiled = (source: string): string => join(dir, relative(REPO, source)).replace(/\.ts$/, '.js')
  const sources = new Set([join(REPO, 'src', 'store', 'index.ts'), ...entries].flatMap(importClosure))
  for (const source of sources) {
    const out = compiled(source)
    mkdirSync(dirname(out), { recursive: true, mode: 0o755 })
    const { outputText } = ts.transpileModule(readFileSync(source, 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
      fileName: source,
    })
    writeFileSync(out, outputText, { mode: 0o644 })
  }
  return { storeModule: join(dir, 'src', 'store', 'index.js'), compiled, cleanup: () => rmSync(dir, { recursive: true, force: true }) }
}

export interface ChildWriteResult {
  ok: boolean
  name?: string
  errno?: string
  message?: string
}

/** Writes `doc` with a FileResultStore at `root`, in a node process running as `nobody`. */
export function writeRunAsNobody(child: ChildStore, root: string, doc: unknown): ChildWriteResult {
  const script = `
    const { FileResultStore } = await import(${JSON.stringify(child.storeModule)})
    const doc = JSON.parse(process.argv[1])
    try {
      await new FileResultStore({ root: ${JSON.stringify(root)} }).writeRun(doc)
      console.log(JSON.stringify({ ok: true }))
    } catch (error) {
      console.log(JSON.stringify({ ok: false, name: error.name, errno: error.errno, message: error.message }))
    }`
  const stdout = execFileSync('setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', process.execPath, '--input-type=module', '-e', script, JSON.stringify(doc)], {
    encoding: 'utf8',
    cwd: '/',
  })
  return JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as ChildWriteResult
}
