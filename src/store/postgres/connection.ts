// The team store's connection: `pg` (an optional peer) is imported only when a postgres:// store is
// first used, one pool per store, migrated once. Every message that names the server names it by
// scheme, host, port and database only; the password of the URL or PGPASSWORD never reaches one.
import { MissingPeerDependencyError } from '../../models/errors.js'
import { StoreWriteError } from '../errors.js'
import { TeamStoreUnreachableError } from './errors.js'
import { isDiglineError } from '../../errors/base.js'
import type { PgClient, PgNamedStatement, PgPool, PgQueryable, PgResult } from './pg-types.js'
import { migrate, REMOVED_SQLSTATE } from './schema.js'
import { describeServer } from '../server-name.js'

export { describeServer }

export type { PgClient, PgNamedStatement, PgPool, PgQueryable, PgResult } from './pg-types.js'

/** Connections one process opens to the team store at most. */
const POOL_SIZE = 10

/** How digline's connections name themselves to the server (pg_stat_activity.application_name), unless PGAPPNAME says otherwise. */
export const APPLICATION_NAME = 'digline'

/** The secrets a message must never show: the URL's password and PGPASSWORD. */
function secretsOf(url: string): string[] {
  const secrets: string[] = []
  try {
    const parsed = new URL(url)
    for (const password of [parsed.password, parsed.searchParams.get('password') ?? '']) if (password !== '') secrets.push(password, decodeURIComponent(password))
  } catch {
    // An unparsable URL: its whole text stays out of messages (describeServer never shows it).
  }
  const env = process.env.PGPASSWORD
  if (env !== undefined && env !== '') secrets.push(env)
  return [...new Set(secrets)].sort((a, b) => b.length - a.length)
}

/** A message of the server or the driver, with every secret taken out. */
export function scrub(text: string, url: string): string {
  let out = text.split(url).join(describeServer(url))
  for (const secret of secretsOf(url)) out = out.split(secret).join('***')
  return out
}

const CONNECTION_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE'])

/** SQLSTATE (or errno) of an error the driver raised. */
export function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' ? code : undefined
}

/** The SQLSTATE of a driver error, also once wrapped as a StoreWriteError (its errno). */
export function sqlstateOf(error: unknown): string | undefined {
  const errno = (error as { errno?: unknown } | null)?.errno
  return codeOf(error) ?? (typeof errno === 'string' ? errno : undefined)
}

/** The server is gone or refused us: no statement was judged by it (or its outcome is unknown). */
export function isConnectionFailure(error: unknown): boolean {
  const code = codeOf(error)
  if (code !== undefined && (CONNECTION_ERRNOS.has(code) || /^(08|28|3D|57P)/.test(code))) return true
  const message = error instanceof Error ? error.message : ''
  return /Connection terminated|connection timeout|Client has encountered a connection error|not queryable/i.test(message)
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** A lazily opened, lazily migrated pool for one store URL. */
export class PgConnection {
  readonly where: string
  private pool: Promise<PgPool> | undefined
  private closed = false

  constructor(readonly url: string) {
    this.where = describeServer(url)
  }

  /** The pool, migrated; the first call imports `pg`, connects and migrates. */
  ready(): Promise<PgPool> {
    if (this.closed) return Promise.reject(new Error(`the team store ${this.where} was closed by this process`))
    this.pool ??= this.open().catch((error: unknown) => {
      this.pool = undefined
      throw error
    })
    return this.pool
  }

  private async open(): Promise<PgPool> {
    const pg = await importPg()
    const pool = new pg.Pool({
      connectionString: this.url,
      max: POOL_SIZE,
      allowExitOnIdle: true,
      application_name: process.env.PGAPPNAME ?? APPLICATION_NAME,
    }) as unknown as PgPool & {
      on(event: 'error', listener: (error: Error) => void): void
      on(event: 'connect', listener: (client: PgClient) => void): void
    }
    // A connection the server dropped (restart, pg_terminate_backend) must not end the process: idle,
    // the pool hears it; checked out, its client does, at every moment (also in the instant between
    // the pool handing it out and its user listening). The next statement on it then fails by name.
    pool.on('error', () => undefined)
    pool.on('connect', (client) => client.on('error', () => undefined))
    try {
      await migrate(pool, this.where)
    } catch (error) {
      await pool.end().catch(() => undefined)
      throw this.failure('opening the team store', error)
    }
    return pool
  }

  /** Closes the pool (tests and benchmarks; a front end's process exits with it idle anyway). */
  async end(): Promise<void> {
    this.closed = true
    const pool = this.pool
    this.pool = undefined
    if (pool !== undefined) await (await pool.catch(() => undefined))?.end()
  }

  /** One statement outside a transaction; a named one is parsed once per connection. */
  async query(doing: string, text: string | PgNamedStatement, values: readonly unknown[] = []): Promise<PgResult> {
    const pool = await this.ready()
    try {
      return await (typeof text === 'string' ? pool.query(text, values) : pool.query(text))
    } catch (error) {
      throw this.failure(doing, error)
    }
  }

  /** A transaction: committed when `step` returns, rolled back when it throws (its error is rethrown as it is). */
  async transaction<T>(doing: string, step: (client: PgQueryable) => Promise<T>): Promise<T> {
    const pool = await this.ready()
    let client: PgClient
    try {
      client = await pool.connect()
    } catch (error) {
      throw this.failure(doing, error)
    }
    let broken: Error | undefined
    // A connection the server ends between two statements (a restart, pg_terminate_backend) says so
    // by an 'error' event on the checked-out client; unheard, it would end the process.
    const lost = (error: Error): void => {
      broken = error
    }
    client.on('error', lost)
    try {
      await client.query('BEGIN')
      const result = await step(client)
      await client.query('COMMIT')
      return result
    } catch (error) {
      if (isConnectionFailure(error)) broken ??= error instanceof Error ? error : new Error(String(error))
      else {
        try {
          await client.query('ROLLBACK')
        } catch (rollback) {
          broken = rollback instanceof Error ? rollback : new Error(String(rollback))
        }
      }
      throw this.failure(doing, error)
    } finally {
      // A broken client is destroyed and keeps the listener: the server's last words may come after.
      if (broken === undefined) client.off('error', lost)
      client.release(broken ?? false)
    }
  }

  /** A driver or server error as digline's own: digline errors and the store's own SQLSTATEs pass through. */
  failure(doing: string, error: unknown): Error {
    if (isDiglineError(error)) return error
    if (codeOf(error) === REMOVED_SQLSTATE) return error as Error
    const why = scrub(messageOf(error), this.url)
    if (isConnectionFailure(error)) {
      return new TeamStoreUnreachableError(
        `the team store ${this.where} could not be reached while ${doing} (${why})`,
        `start the server or fix the store URL (check it with \`pg_isready\`), then run the command again`,
      )
    }
    return new StoreWriteError(`the team store ${this.where} failed while ${doing} (${why})`, 'check the server log of the team store, then run the command again', codeOf(error))
  }
}

type PgModule = { Pool: new (config: Record<string, unknown>) => unknown }

async function importPg(): Promise<PgModule> {
  try {
    const loaded = (await import('pg')) as unknown as { default?: PgModule } & PgModule
    return loaded.default ?? loaded
  } catch (error) {
    if (codeOf(error) === 'ERR_MODULE_NOT_FOUND' || codeOf(error) === 'MODULE_NOT_FOUND') {
      throw new MissingPeerDependencyError(
        'the team store (a postgres:// store) needs the package "pg", which is not installed; nothing was opened',
        'Run `npm install -D pg` in the project.',
        ['store'],
      )
    }
    throw error
  }
}
