// `digline pending` while another live process writes the run (issue 23 item 13, ADR 0111): on both
// backends, a real child process holds a journal leg under its own lease; pending says the run is
// live and who holds it, offers no resume command, and --json carries the very refusal a resume
// meets. Once the writer is killed and its lease no longer holds, the resume command is offered.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { pendingCommand } from '../../src/cli/commands/pending.js'
import { pendingRows, type Store } from '../../src/host/index.js'
import { chooseResume } from '../../src/host/launch/choose-resume.js'
import { openStore } from '../../src/store/open-store.js'
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js'
import type { ChildStore } from '../store/child-store.js'
import { compileWriter, startWriter, type Writer } from '../store/contract/writer.js'
import { journalHeader, judged, KEY, OBSERVED_1, progress, SUITE, TENANT } from '../store/journal-fixtures.js'
import { makeTempStore } from '../store/temp-store.js'

interface Backend {
  store: Store
  locator: string
  cleanup(): Promise<void>
}

let db: TestDatabase | undefined
const BACKENDS: [string, () => Promise<Backend>][] = [
  [
    'file store',
    async () => {
      const temp = makeTempStore()
      return { store: temp.store, locator: temp.root, cleanup: async () => temp.cleanup() }
    },
  ],
  [
    'team store (PostgreSQL)',
    async () => {
      db ??= await createTestDatabase('pending_live')
      await db.truncate()
      const store = openStore({ store: db.url, say: () => {} })
      return { store, locator: db.url, cleanup: async () => (store as { end?: () => Promise<void> }).end?.() }
    },
  ],
]

/** `digline pending` in this process, as the bin runs it, against the store `locator` names. */
async function pending(locator: string, json: boolean): Promise<{ code: number; stdout: string }> {
  const cwd = mkdtempSync(join(tmpdir(), 'digline-pending-'))
  let stdout = ''
  try {
    const code = await pendingCommand.run(['--tenant', TENANT, '--store', locator, '--suite', SUITE, ...(json ? ['--json'] : [])], {
      cwd,
      env: process.env,
      stdout: (text) => (stdout += `${text}\n`),
      stderr: () => {},
    })
    return { code, stdout }
  } finally {
    rmSync(cwd, { recursive: true, force: true })
  }
}

/** Polls until the writer's lease stops holding (at once on the file store; the team store's may run out on its own). */
async function untilNotLive(store: Store): Promise<void> {
  const deadline = Date.now() + 60_000
  while ((await store.pending(TENANT, SUITE)).some((p) => p.leases.some((l) => l.live))) {
    if (Date.now() > deadline) throw new Error('the killed writer still held its lease after 60 s')
    await new Promise((r) => setTimeout(r, 100))
  }
}

let compiled: ChildStore | undefined
beforeAll(() => {
  compiled = compileWriter()
})
afterAll(async () => {
  compiled?.cleanup()
  await db?.drop()
})

describe.each(BACKENDS)('digline pending while a live process writes the run (%s)', (_name, open) => {
  let backend: Backend | undefined
  let writer: Writer | undefined
  afterEach(async () => {
    await writer?.kill()
    await backend?.cleanup()
    writer = undefined
    backend = undefined
  })

  it('names the live writer, offers no resume, and --json carries the refusal the resume meets; once the writer is gone the resume is offered', async () => {
    backend = await open()
    const { lease: _lease, ...opening } = journalHeader()
    writer = await startWriter(compiled!, backend.locator)
    await writer.open(opening, 1)
    await writer.append([progress(judged(0), OBSERVED_1, 0), progress(judged(1), OBSERVED_1, 1)])

    const refused = await chooseResume(backend.store, TENANT, { key: KEY }).then(
      () => undefined,
      (error: Error) => error,
    )
    expect(refused?.name, 'the resume itself is refused while the lease holds').toBe('LiveRunError')

    const [row] = await pendingRows(backend.store, TENANT, SUITE)
    expect(row).toMatchObject({ key: KEY, journaled: 2, finished: false, resume: null, live: { pid: writer.pid, leg: 1 } })
    expect(row!.refusal).toMatchObject({ name: 'LiveRunError', message: refused!.message })

    const json = await pending(backend.locator, true)
    expect(json.code).toBe(0)
    const listed = JSON.parse(json.stdout) as { pending: { key: string; refusal: { name: string; next: string } | null; resume: string | null; live: { pid: number } | null }[] }
    expect(listed.pending).toEqual([expect.objectContaining({ key: KEY, resume: null, live: expect.objectContaining({ pid: writer.pid }) })])
    expect(listed.pending[0]!.refusal).toMatchObject({ name: 'LiveRunError', message: refused!.message })

    const text = await pending(backend.locator, false)
    expect(text.code).toBe(0)
    expect(text.stdout).toContain(`live: process ${writer.pid} on host`)
    expect(text.stdout).not.toContain('digline run --resume')

    await writer.kill()
    await untilNotLive(backend.store)
    const [after] = await pendingRows(backend.store, TENANT, SUITE)
    expect(after).toMatchObject({ key: KEY, live: null, refusal: null, resume: `digline run --resume ${KEY}` })
    expect((await pending(backend.locator, false)).stdout).toContain(`\`digline run --resume ${KEY}\``)
  })
})
