// `digline mcp` as the SDK's own Client meets it over stdio, without launching Vitest: a refusal
// survives the client's output-schema check after listTools(); a message over the SDK's size limit
// is explained on stderr; over the team store the server holds one connection pool for its life.
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import { connect, textOf, type Connected } from '../helpers/mcp-client.js'
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js'
import { installRoot, makeProject } from '../helpers/project.js'
import { installedBin } from '../helpers/installed-package.js'

const open: Connected[] = []
afterEach(async () => {
  for (const c of open.splice(0)) await c.client.close().catch(() => undefined)
})

let db: TestDatabase | undefined
beforeAll(async () => {
  db = await createTestDatabase('mcp_pool')
})
afterAll(async () => {
  await db?.drop()
})

test('after listTools(), as every agent calls it, a refusal comes back as a tool error the client can read', async () => {
  const mcp = await connect(makeProject())
  open.push(mcp)
  const { tools } = await mcp.client.listTools()
  expect(tools.find((t) => t.name === 'show_run')?.outputSchema).toBeDefined()
  for (const [name, args, refusal] of [
    ['show_run', { suite: 'triage', run: '../../etc/passwd' }, 'PathRefusedError'],
    ['show_run', { suite: 'triage', run: 'latest' }, 'RunNotFoundError'],
    ['list_runs', { suite: '..' }, 'PathRefusedError'],
    ['compare_run', { suite: 'triage', run: 'latest' }, 'RunNotFoundError'],
  ] as const) {
    const result = await mcp.call(name, args)
    expect(result.isError, `${name}: ${textOf(result)}`).toBe(true)
    expect(textOf(result)).toMatch(new RegExp(`^refused ${refusal}: [^]*\\n {2}next: `))
    expect(result.structuredContent).toBeUndefined()
    expect(result._meta?.['digline/error']).toMatchObject({ error: refusal, kind: 'refusal' })
  }
})

test('a message over the SDK stdio limit ends the server with the reason on stderr', async () => {
  const project = makeProject()
  const bin = installedBin(installRoot())
  const child = spawn(process.execPath, [bin, 'mcp'], { cwd: project.dir, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } })
  let stderr = ''
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  child.stdin.on('error', () => undefined)
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_runs', arguments: { suite: 'x'.repeat(11 * 1024 * 1024) } } })
  child.stdin.write(`${big}\n`)
  const code = await Promise.race([exited, new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 60_000))])
  if (code === 'hung') child.kill('SIGKILL')
  expect(code, stderr).not.toBe('hung')
  expect(stderr).toContain("digline mcp: a message from the client was larger than the 10485760 bytes the MCP SDK's stdio transport takes for one message")
})

test('over the team store the server holds one connection pool for its whole life, and ends it when the client goes', async () => {
  if (db === undefined) throw new Error('the test database is created first')
  const database = db
  const appName = `digline-mcp-${randomBytes(4).toString('hex')}`
  const backends = async (): Promise<number> => {
    const { rows } = await database.sql('SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1', [appName])
    return (rows[0] as { n: number }).n
  }
  const mcp = await connect(makeProject(), ['--store', database.url, '--tenant', 'acme'], { PGAPPNAME: appName })
  open.push(mcp)
  const first = await mcp.call('list_suites', {})
  expect(first.isError, textOf(first) + mcp.stderr()).toBeFalsy()
  const afterOne = await backends()
  expect(afterOne).toBeGreaterThan(0)
  for (let i = 0; i < 4; i++) {
    for (const [name, args] of [
      ['list_suites', {}],
      ['list_runs', { suite: 'triage' }],
      ['pending', {}],
    ] as const) {
      const result = await mcp.call(name, args)
      expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy()
    }
  }
  // Thirteen tool calls, one after the other: one pool, and so no more backends than after the first.
  expect(await backends()).toBe(afterOne)
  await mcp.client.close()
  open.splice(0)
  const deadline = Date.now() + 10_000
  while ((await backends()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
  expect(await backends()).toBe(0)
})
