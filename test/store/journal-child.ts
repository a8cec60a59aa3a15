// FileJournal in separate node processes, to race two real processes for one leg. The children
// import the store compiled by child-store.ts.
import { spawn } from 'node:child_process'
import { dirname, join } from 'node:path'
import { compileStoreForChild } from './child-store.js'
import type { JournalOpening } from '../../src/store/journal.js'

export interface JournalChildren {
  /** Starts a process that writes `<go>.<pid>.ready`, waits for `go` to exist, then opens `leg` (its own pid in the header). */
  open(root: string, header: JournalOpening, leg: number, go: string): Promise<ChildOpen>
  cleanup(): void
}

export interface ChildOpen {
  ok: boolean
  pid: number
  name?: string
  message?: string
}

export function compileJournalForChildren(): JournalChildren {
  const child = compileStoreForChild()
  const module = join(dirname(child.storeModule), 'file', 'journal.js')
  const script = `
    import { existsSync, writeFileSync } from 'node:fs'
    const { FileJournal } = await import(${JSON.stringify(module)})
    const [root, header, leg, go] = process.argv.slice(1)
    writeFileSync(\`\${go}.\${process.pid}.ready\`, '')
    while (!existsSync(go)) await new Promise((r) => setTimeout(r, 1))
    try {
      const journal = await new FileJournal({ root }).openJournal(((h) => ({ ...h, lease: { ...h.lease, pid: process.pid, start_time: null } }))(JSON.parse(header)), Number(leg))
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
    cleanup: child.cleanup,
  }
}
