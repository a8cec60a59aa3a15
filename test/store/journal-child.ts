// FileJournal in separate node processes, to race two real processes for one leg. The sources are
// transpiled with the TypeScript compiler into a temp directory the children import.
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'
import type { JournalHeader } from '../../src/store/journal.js'

const REPO = resolve(import.meta.dirname, '..', '..')

function importClosure(entry: string): string[] {
  const seen = new Set<string>()
  const visit = (file: string): void => {
    if (seen.has(file)) return
    seen.add(file)
    for (const match of readFileSync(file, 'utf8').matchAll(/from '(\.{1,2}\/[^']+)\.js'/g)) visit(resolve(dirname(file), `${match[1]}.ts`))
  }
  visit(entry)
  return [...seen]
}

export interface JournalChildren {
  /** Starts a process that writes `<go>.<pid>.ready`, waits for `go` to exist, then opens `leg` (its own pid in the header). */
  open(root: string, header: Omit<JournalHeader, 'leg' | 'pid'>, leg: number, go: string): Promise<ChildOpen>
  cleanup(): void
}

export interface ChildOpen {
  ok: boolean
  pid: number
  name?: string
  message?: string
}

export function compileJournalForChildren(): JournalChildren {
  const dir = mkdtempSync(join(tmpdir(), 'digline-journal-child-'))
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'))
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n')
  for (const source of importClosure(join(REPO, 'src', 'store', 'file-journal.ts'))) {
    const out = join(dir, relative(REPO, source)).replace(/\.ts$/, '.js')
    mkdirSync(dirname(out), { recursive: true })
    const { outputText } = ts.transpileModule(readFileSync(source, 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
      fileName: source,
    })
    writeFileSync(out, outputText)
  }
  const module = join(dir, 'src', 'store', 'file-journal.js')
  const script = `
    import { existsSync, writeFileSync } from 'node:fs'
    const { FileJournal } = await import(${JSON.stringify(module)})
    const [root, header, leg, go] = process.argv.slice(1)
    writeFileSync(\`\${go}.\${process.pid}.ready\`, '')
    while (!existsSync(go)) await new Promise((r) => setTimeout(r, 1))
    try {
      const journal = await new FileJournal({ root }).openJournal({ ...JSON.parse(header), pid: process.pid }, Number(leg))
      await journal.close()
      console.log(JSON.stringify({ ok: true, pid: process.pid }))
    } catch (error) {
      console.log(JSON.stringify({ ok: false, pid: process.pid, name: error.name, message: error.message }))
    }`
  return {
    open: (root, header, leg, go) =>
      new Promise((resolvePromise, reject) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', script, root, JSON.stringify(header), String(leg), go], { stdio: ['ignore', 'pipe', 'pipe'] })
        let out = ''
        let err = ''
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
        child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()))
        child.on('error', reject)
        child.on('close', (code) => {
          const last = out.trim().split('\n').pop()
          if (code !== 0 || last === undefined || last === '') reject(new Error(`child exited ${code}: ${err}`))
          else resolvePromise(JSON.parse(last) as ChildOpen)
        })
      }),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  }
}
