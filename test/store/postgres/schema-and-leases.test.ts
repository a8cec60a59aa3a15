// What the team store's database itself holds to, on a real server: migrations applied once however
// many processes start at once, a newer schema refused by name, removal records that refuse a write
// from a client that never checked them, and leases that hold while their heartbeat beats and expire
// on their own when it stops (a writer on another machine that crashed).
import { execFile } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { TeamStoreSchemaTooNewError } from '../../../src/store/postgres/errors.js'
import { JOURNAL_VERSION } from '../../../src/store/journal.js'
import { SCHEMA_VERSION_LATEST } from '../../../src/store/postgres/schema.js'
import { PostgresStore } from '../../../src/store/postgres/store.js'
import { keyOf, makeRun } from '../../helpers/make-run.js'
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres.js'
import { compileStoreForChild, type ChildStore } from '../child-store.js'
import { journalHeader } from '../journal-fixtures.js'

const databases: TestDatabase[] = []
let child: ChildStore
beforeAll(() => {
  child = compileStoreForChild()
})
afterAll(async () => {
  child?.cleanup()
  await Promise.all(databases.map((d) => d.drop()))
})

async function database(label: string): Promise<TestDatabase> {
  const db = await createTestDatabase(label)
  databases.push(db)
  return db
}

/** Opens the store in a separate node process and migrates it; resolves with what the process printed. */
function migrateInChild(url: string): Promise<string> {
  const script = `
    const { PostgresStore } = await import(${JSON.stringify(child.storeModule)})
    const store = new PostgresStore({ url: process.argv[1] })
    try { await store.ready(); console.log('migrated') } catch (error) { console.log('failed ' + error.name + ': ' + error.message) }
    await store.end()`
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', script, url], { timeout: 60_000 }, (error, stdout, stderr) =>
      error === null ? resolve(stdout.trim()) : reject(new Error(`${error.message}\n${stderr}`)),
    )
  })
}

describe('migrations', () => {
  test('8 processes migrating an empty database at once apply each migration exactly once', async () => {
    const db = await database('migrate_race')
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => migrateInChild(db.url)))
    expect(outcomes).toEqual(Array.from({ length: 8 }, () => 'migrated'))
    const { rows } = await db.sql('SELECT version FROM digline_schema_migrations ORDER BY version')
    expect(rows.map((r: { version: number }) => r.version)).toEqual(Array.from({ length: SCHEMA_VERSION_LATEST }, (_, i) => i + 1))
    const store = new PostgresStore({ url: db.url })
    try {
      await store.writeRun(makeRun())
      expect((await store.listRuns('acme', 'capitals')).runs).toHaveLength(1)
    } finally {
      await store.end()
    }
  })

  test('migrating again changes nothing', async () => {
    const db = await database('migrate_again')
    expect(await migrateInChild(db.url)).toBe('migrated')
    const before = await db.snapshot()
    expect(await migrateInChild(db.url)).toBe('migrated')
    expect(await db.snapshot()).toEqual(before)
  })

  test('a database at a newer schema version is refused by name (64), and nothing is written', async () => {
    const db = await database('migrate_newer')
    expect(await migrateInChild(db.url)).toBe('migrated')
    await db.sql('INSERT INTO digline_schema_migrations (version) VALUES ($1)', [SCHEMA_VERSION_LATEST + 7])
    const before = await db.snapshot()
    const store = new PostgresStore({ url: db.url })
    try {
      const error = await store.writeRun(makeRun()).then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(error).toBeInstanceOf(TeamStoreSchemaTooNewError)
      expect((error as TeamStoreSchemaTooNewError).exitCode).toBe(64)
      expect((error as Error).message).toContain(`version ${SCHEMA_VERSION_LATEST + 7}`)
      expect((error as Error).message).toContain('next: ')
    } finally {
      await store.end()
    }
    expect(await db.snapshot()).toEqual(before)
  })
})

describe('the database enforces removal records, whatever the client checked', () => {
  test('a raw INSERT of a removed run, of a replay of it, of a journal leg or baseline of it fails with SQLSTATE DL001; of a journal record, for want of its leg', async () => {
    const db = await database('guard')
    const store = new PostgresStore({ url: db.url })
    const run = makeRun()
    const key = keyOf(run)
    try {
      await store.writeRun(run)
      const leg = await store.openJournal(journalHeader(), 1)
      await leg.close()
      await store.deleteRun('acme', 'capitals', key)
    } finally {
      await store.end()
    }
    const refused = async (text: string, values: unknown[], code = 'DL001'): Promise<void> => {
      const error = await db.sql(text, values).then(
        () => undefined,
        (e: unknown) => e,
      )
      expect((error as { code?: string } | undefined)?.code, text).toBe(code)
    }
    await refused(`INSERT INTO digline_runs (tenant, suite, key, created_at, header, aggregates, document) VALUES ('acme', 'capitals', $1, 'x', '{}', '{}', '{}')`, [key])
    await refused(
      `INSERT INTO digline_runs (tenant, suite, key, created_at, rejudged_from, rejudged_from_suite, header, aggregates, document) VALUES ('acme', 'other', 'k2', 'x', $1, 'capitals', '{}', '{}', '{}')`,
      [key],
    )
    await refused(`INSERT INTO digline_journal_legs (tenant, suite, key, leg, header_line, declared_line, lease_expires_at) VALUES ('acme', 'capitals', $1, 9, 'h', 'd', now())`, [
      key,
    ])
    await refused(`INSERT INTO digline_journal_records (tenant, suite, key, leg, seq, line) VALUES ('acme', 'capitals', $1, 1, 1, 'r')`, [key], '23503')
    await refused(`INSERT INTO digline_baselines (tenant, suite, promoted_from, document) VALUES ('acme', 'capitals', $1, '{}')`, [key])
    const { rows } = await db.sql('SELECT count(*)::int AS n FROM digline_runs')
    expect(rows[0].n).toBe(0)
  })
})

describe('leases: a heartbeat and an expiry', () => {
  const TTL = 400
  const elsewhere = { host: 'another-machine', boot: 'another-boot', pid: 4242, start_time: 1 }
  const header = () => ({ ...journalHeader(), journal_version: JOURNAL_VERSION, lease: elsewhere })

  test('a writer of another machine holds its lease while it beats, past its expiry; once it stops beating (crashed) the lease expires on its own', async () => {
    const db = await database('leases')
    const writer = new PostgresStore({ url: db.url, leaseTtlMs: TTL })
    const reader = new PostgresStore({ url: db.url })
    try {
      const leg = await writer.openJournal(header(), 1)
      await new Promise((r) => setTimeout(r, TTL * 4))
      const [held] = await reader.pending('acme', 'capitals')
      expect(held?.leases).toEqual([expect.objectContaining({ leg: 1, live: true, lease: elsewhere })])
      // The writer "crashes": its heartbeat stops and nobody releases the lease.
      await writer.end()
      const deadline = Date.now() + 60_000
      let live = true
      while (live && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100))
        live = (await reader.pending('acme', 'capitals'))[0]!.leases[0]!.live
      }
      expect(live).toBe(false)
      expect(leg.leg).toBe(1)
    } finally {
      await writer.end()
      await reader.end()
    }
  })

  test('closing a leg releases its lease at once', async () => {
    const db = await database('lease_release')
    const writer = new PostgresStore({ url: db.url, leaseTtlMs: 60_000 })
    const reader = new PostgresStore({ url: db.url })
    try {
      const leg = await writer.openJournal(header(), 1)
      expect((await reader.pending('acme', 'capitals'))[0]!.leases[0]!.live).toBe(true)
      await leg.close()
      expect((await reader.pending('acme', 'capitals'))[0]!.leases[0]!.live).toBe(false)
    } finally {
      await writer.end()
      await reader.end()
    }
  })
})
