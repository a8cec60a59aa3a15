// The team store's password never leaves digline's hands: a real suite and the CLI run against a
// store URL that carries a password (and with PGPASSWORD set), a connection that fails and a
// database that is refused; then everything digline wrote (stdout, stderr, every file of the project,
// the GITHUB_STEP_SUMMARY file) is searched for either password. The read commands whose text only
// adds to that search run through the CLI's main() in this process (ADR 0470: the bin adds nothing
// to its text), with PGPASSWORD in this process's environment as a bin would have it; `list`, the
// refusals, `view`, `mcp` and both `vitest run`s are real processes.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { SCHEMA_VERSION_LATEST } from '../../src/store/postgres/schema.js'
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js'
import { inProcess } from './cli-in-process.js'
import { connect, textOf } from '../helpers/mcp-client.js'
import { countingSuite, makeProject, type ProcessResult } from '../helpers/project.js'

const URL_PASSWORD = 'UrlPw-7f3a9c-secret'
const ENV_PASSWORD = 'EnvPw-42be11-secret'

let db: TestDatabase
let newer: TestDatabase
// pg reads PGPASSWORD from the process's own environment: set here too for the in-process commands
const pgPasswordBefore = process.env.PGPASSWORD
beforeAll(async () => {
  process.env.PGPASSWORD = ENV_PASSWORD
  db = await createTestDatabase('credentials')
  newer = await createTestDatabase('credentials_newer')
})
afterAll(async () => {
  if (pgPasswordBefore === undefined) delete process.env.PGPASSWORD
  else process.env.PGPASSWORD = pgPasswordBefore
  await db?.drop()
  await newer?.drop()
})

function withPassword(url: string, port?: number): string {
  const parsed = new URL(url)
  parsed.username = 'postgres'
  parsed.password = URL_PASSWORD
  if (port !== undefined) parsed.port = String(port)
  return parsed.toString()
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })
}

test('no password of the URL or PGPASSWORD appears in any output, file or step summary digline wrote', async () => {
  const project = makeProject({ 'evals/secret.eval.ts': countingSuite({ name: 'secret', cases: 5, answer: "i === 2 ? 'wrong' : 'ok-' + i" }) })
  const summary = join(project.dir, 'step-summary.md')
  const url = withPassword(db.url)
  const env = { DIGLINE_STORE: url, PGPASSWORD: ENV_PASSWORD, GITHUB_STEP_SUMMARY: summary, GITHUB_ACTIONS: 'true' }
  const outputs: ProcessResult[] = []
  const digline = async (args: string[], extra: NodeJS.ProcessEnv = {}) => {
    const result = await project.digline(args, { ...env, ...extra })
    outputs.push(result)
    return result
  }
  const cli = async (args: string[]) => {
    const result = await inProcess(project, args, env)
    outputs.push({ ...result, signal: null })
    return result
  }

  const run = await project.vitest([], { ...env, DIGLINE_CREATED_AT: '2026-11-30T10:00:00.000001Z' })
  outputs.push(run)
  expect(run.code, run.stdout + run.stderr).toBe(0)
  expect((await digline(['list'])).code).toBe(0)
  expect((await cli(['list', '--suite', 'secret', '--json'])).code).toBe(0)
  expect((await cli(['show', '--suite', 'secret', '--run', 'latest'])).code).toBe(0)
  expect((await cli(['show', '--suite', 'secret', '--run', 'latest', '--json'])).code).toBe(0)
  expect((await cli(['compare', '--suite', 'secret', '--run', 'latest'])).code).toBe(0)
  expect((await cli(['compare', '--suite', 'secret', '--run', 'latest', '--format', 'md'])).code).toBe(0)
  expect((await cli(['pending'])).code).toBe(0)
  expect((await digline(['show', '--suite', 'secret', '--run', '20200101T000000000000Z-000000000000'])).code).toBe(64)
  expect((await cli(['export', '--suite', 'secret', '--out', 'exported'])).code).toBe(0)
  expect((await cli(['report', '--out', 'report.html'])).code).toBe(0)
  expect((await cli(['cache', 'clear'])).code).toBe(0)
  expect((await cli(['delete', '--suite', 'secret', '--run', '20200101T000000000000Z-000000000000'])).code).toBe(0)

  // `digline view`: its first line, then each page it serves.
  const view = project.spawnDigline(['view', '--port', '0'], env)
  let viewOut = ''
  view.stdout!.on('data', (d) => (viewOut += d))
  const deadline = Date.now() + 60_000
  while (!/http:\/\/\S+/.test(viewOut) && Date.now() < deadline && view.exitCode === null) await new Promise((r) => setTimeout(r, 100))
  const viewUrl = /(http:\/\/[^\s/]+)/.exec(viewOut)?.[1]
  expect(viewUrl, viewOut).toBeDefined()
  const pages = await Promise.all(['/', '/data.json', '/nowhere'].map(async (path) => (await fetch(viewUrl + path)).text()))
  view.kill('SIGTERM')
  outputs.push(await view.done)
  expect(pages[1]).toContain('secret')

  // The MCP tools an agent reads with.
  const mcp = await connect(project, [], env)
  const toolTexts: string[] = []
  try {
    for (const [name, args] of [
      ['list_suites', {}],
      ['list_runs', { suite: 'secret' }],
      ['show_run', { suite: 'secret', run: 'latest', all: true }],
      ['compare_run', { suite: 'secret', run: 'latest' }],
      ['pending', {}],
      ['show_run', { suite: 'secret', run: '20200101T000000000000Z-000000000000' }],
    ] as const) {
      const result = await mcp.call(name, args)
      toolTexts.push(textOf(result), JSON.stringify(result))
    }
    expect(toolTexts.join('\n')).toContain('the team store postgres://')
  } finally {
    await mcp.client.close()
  }
  toolTexts.push(mcp.stderr())

  const unreachable = await digline(['list', '--suite', 'secret'], { DIGLINE_STORE: withPassword(db.url, 1) })
  expect(unreachable.code, unreachable.stderr).toBe(2)
  expect(unreachable.stderr).toContain('TeamStoreUnreachableError')
  const unreachableRun = await project.vitest([], { ...env, DIGLINE_STORE: withPassword(db.url, 1) })
  outputs.push(unreachableRun)
  expect(unreachableRun.code).not.toBe(0)

  await newer.sql('CREATE TABLE digline_schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())')
  await newer.sql('INSERT INTO digline_schema_migrations (version) VALUES ($1)', [SCHEMA_VERSION_LATEST + 1])
  const refused = await digline(['list', '--suite', 'secret'], { DIGLINE_STORE: withPassword(newer.url) })
  expect(refused.code, refused.stderr).toBe(64)
  expect(refused.stderr).toContain('TeamStoreSchemaTooNewError')

  const written = [...outputs.flatMap((o) => [o.stdout, o.stderr]), ...pages, ...toolTexts, ...filesUnder(project.dir).map((file) => readFileSync(file, 'utf8'))]
  expect(written.join('\n').length).toBeGreaterThan(0)
  expect(filesUnder(project.dir)).toContain(summary)
  expect(filesUnder(project.dir)).toContain(join(project.dir, 'report.html'))
  expect(outputs.some((o) => o.stdout.includes('digline view: serving acme from the team store postgres://'))).toBe(true)
  for (const text of written) {
    expect(text).not.toContain(URL_PASSWORD)
    expect(text).not.toContain(ENV_PASSWORD)
  }
}, 400_000)
