// Apart from the connection, so that naming a store in a message loads no pool code.
/** The URL as messages show it: scheme, host, port and database; never the user's password or query. */
export function describeServer(url: string): string {
  try {
    const parsed = new URL(url)
    const host = parsed.host === '' ? (process.env.PGHOST ?? 'localhost') : parsed.host
    return `${parsed.protocol}//${host}${parsed.pathname === '/' ? '' : parsed.pathname}`
  } catch {
    return `${/^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1] ?? 'postgres'}://…`
  }
}
