// The shapes of `pg` the team store uses (the driver is an optional peer, imported only when a
// postgres:// store is first used). They sit below connection.ts and schema.ts, which both use them.
export interface PgResult {
  rows: Record<string, unknown>[]
  rowCount: number | null
}

export interface PgQueryable {
  query(text: string, values?: readonly unknown[]): Promise<PgResult>
}

/** A statement the server keeps prepared under `name`, per connection, after its first use. */
export interface PgNamedStatement {
  name: string
  text: string
  values: readonly unknown[]
}

export interface PgClient extends PgQueryable {
  release(destroy?: boolean | Error): void
  on(event: 'error', listener: (error: Error) => void): unknown
  off(event: 'error', listener: (error: Error) => void): unknown
}

export interface PgPool extends PgQueryable {
  query(statement: string | PgNamedStatement, values?: readonly unknown[]): Promise<PgResult>
  connect(): Promise<PgClient>
  end(): Promise<void>
}
