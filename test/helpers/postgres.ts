// A real PostgreSQL server for tests: each test file gets its own database (a random name, dropped
// after), created through the server DIGLINE_TEST_PG_URL names. No mock of pg, no imitation: when
// the server is unreachable the test fails, saying how to start it.
import { randomBytes } from 'node:crypto'
import { readdirSync } from 'node:fs'
import pg from 'pg'

export const PG_BASE_URL = process.env.DIGLINE_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

function startHint(): string {
  let version = '<version>'
  try {
    version = readdirSync('/etc/postgresql')[0] ?? version
  } catch {
    // No Debian cluster here: the hint keeps its placeholder.
  }
  return (
    `the tests of the team store need a PostgreSQL server at ${PG_BASE_URL} (set DIGLINE_TEST_PG_URL to use another). ` +
    `Start the machine's cluster with \`pg_ctlcluster --skip-systemctl-redirect ${version} main start\` ` +
    '(or run `.ci/run`, which installs and starts one), check it with `pg_isready -h 127.0.0.1`, then run the tests again'
  )
}

/** The URL of another database on the same server. */
export function databaseUrl(name: string, base = PG_BASE_URL): string {
  const url = new URL(base)
  url.pathname = `/${name}`
  return url.toString()
}

async function withClient<T>(url: string, step: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  try {
    await client.connect()
  } catch (error) {
    throw new Error(`${startHint()} (connecting failed: ${error instanceof Error ? error.message : String(error)})`, { cause: error })
  }
  try {
    return await step(client)
  } finally {
    await client.end().catch(() => undefined)
  }
}

export interface TestDatabase {
  name: string
  url: string
  /** Every row of every table, minus lease expiries (a heartbeat renews them; it changes no content). */
  snapshot(): Promise<Record<string, string[]>>
  /** Empties every digline table (a fresh store, schema kept). */
  truncate(): Promise<void>
  /** Runs SQL as the server's superuser in this database. */
  sql(text: string, values?: unknown[]): Promise<pg.QueryResult>
  drop(): Promise<void>
}

export async function createTestDatabase(label: string): Promise<TestDatabase> {
  const name = `digline_test_${label.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${randomBytes(5).toString('hex')}`
  await withClient(PG_BASE_URL, (client) => client.query(`CREATE DATABASE ${name}`))
  const url = databaseUrl(name)
  const sql = (text: string, values: unknown[] = []) => withClient(url, (client) => client.query(text, values))
  // Snapshots are taken by the hundred (before and after every refusal of a contract test): they share
  // one connection, opened on first use and again after the server dropped it (a restart, a drop).
  let reader: Promise<pg.Client> | undefined
  const readerClient = (): Promise<pg.Client> =>
    (reader ??= (async () => {
      const client = new pg.Client({ connectionString: url })
      client.on('error', () => (reader = undefined))
      client.on('end', () => (reader = undefined))
      try {
        await client.connect()
      } catch (error) {
        reader = undefined
        throw new Error(`${startHint()} (connecting failed: ${error instanceof Error ? error.message : String(error)})`, { cause: error })
      }
      return client
    })())
  const readAll = async (client: pg.Client): Promise<Record<string, string[]>> => {
    const tables = await client.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`)
    const out: Record<string, string[]> = {}
    for (const { table_name: table } of tables.rows as { table_name: string }[]) {
      const { rows } = await client.query(`SELECT (to_jsonb(t) - 'lease_expires_at')::text AS row FROM ${table} t`)
      out[table] = (rows as { row: string }[]).map((r) => r.row).sort()
    }
    return out
  }
  const endReader = async (): Promise<void> => {
    const open = reader
    reader = undefined
    if (open !== undefined) await (await open.catch(() => undefined))?.end().catch(() => undefined)
  }
  return {
    name,
    url,
    sql,
    async snapshot() {
      try {
        return await readAll(await readerClient())
      } catch {
        // the shared connection was lost: once more on a new one, whose failure is the test's
        await endReader()
        return readAll(await readerClient())
      }
    },
    async truncate() {
      await withClient(url, async (client) => {
        const { rows } = await client.query(
          `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name LIKE 'digline\\_%' AND table_name <> 'digline_schema_migrations'`,
        )
        if (rows.length > 0) await client.query(`TRUNCATE ${(rows as { table_name: string }[]).map((r) => r.table_name).join(', ')} RESTART IDENTITY CASCADE`)
      })
    },
    async drop() {
      await endReader()
      await withClient(PG_BASE_URL, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
    },
  }
}
