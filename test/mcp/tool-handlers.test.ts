// The server's tool handlers in-process, over the SDK's in-memory transport pair: a store written
// through the Store contract, read back by the tools; refusals and malformed arguments as tool errors.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { openProjectSession } from '../../src/host/index.js'
import { createDiglineServer } from '../../src/mcp/server.js'
import { openStore } from '../../src/store/open-store.js'
import { keyOf, makeRun } from '../helpers/make-run.js'
import { answerDigestOf } from '../../src/document/answer-digest.js'
import { newReview } from '../../src/store/review.js'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

async function connected(flags: { tenant?: string; store?: string }) {
  const cwd = mkdtempSync(join(tmpdir(), 'digline-mcp-unit-'))
  dirs.push(cwd)
  const logged: string[] = []
  const server = createDiglineServer({
    cwd,
    env: {},
    flags,
    session: openProjectSession(cwd, flags, {}),
    log: (t) => logged.push(t),
    stopping: new AbortController().signal,
    track: () => undefined,
  })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new Client({ name: 'unit', version: '0.0.0' })
  await client.connect(clientSide)
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult
  return { cwd, client, call, logged }
}

const text = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n')

test('list_suites, list_runs and show_run read what the store holds, and nothing else', async () => {
  const storeDir = mkdtempSync(join(tmpdir(), 'digline-mcp-store-'))
  dirs.push(storeDir)
  const store = openStore({ store: storeDir })
  const doc = makeRun({ tenant: 'acme', suite: 'triage', results: 8 })
  await store.writeRun(doc)
  const { call } = await connected({ tenant: 'acme', store: storeDir })

  const suites = await call('list_suites', {})
  expect(suites.structuredContent).toMatchObject({ tenant: 'acme', suites: [{ suite: 'triage', runs: 1, latest: keyOf(doc), baseline: null }] })

  const runs = await call('list_runs', { suite: 'triage' })
  expect(runs.structuredContent).toMatchObject({ suite: 'triage', runs: [{ key: keyOf(doc) }] })

  const shown = await call('show_run', { suite: 'triage', run: 'latest' })
  const run = (shown.structuredContent as { key: string; answers_recorded: boolean; run: { results: { case_id: string; verdict: string }[] } }).run
  expect(shown.structuredContent).toMatchObject({ key: keyOf(doc), answers_recorded: false })
  // only the cases that did not pass, unless all is asked for
  expect(run.results.map((r) => r.verdict)).toEqual(['fail'])
  const all = await call('show_run', { suite: 'triage', run: keyOf(doc), all: true })
  expect((all.structuredContent as { run: { results: unknown[] } }).run.results).toHaveLength(8)

  const compared = await call('compare_run', { suite: 'triage', run: 'latest' })
  expect(compared.structuredContent).toMatchObject({
    status: 'held',
    exit_code: 0,
    comparison: null,
    flipped: [],
    promotion: { command: `digline promote --suite triage --run ${keyOf(doc)}` },
  })

  const pending = await call('pending', {})
  expect(pending.structuredContent).toEqual({ tenant: 'acme', pending: [] })
  // reading never wrote: only the run document under the store
  expect(readdirSync(join(storeDir, 'acme'))).toEqual(['runs'])
})

test('malformed arguments, unsafe names and refusals are tool errors, named as the CLI names them', async () => {
  const storeDir = mkdtempSync(join(tmpdir(), 'digline-mcp-store-'))
  dirs.push(storeDir)
  const { call, client } = await connected({ tenant: 'acme', store: storeDir })

  for (const [name, args] of [
    ['list_runs', {}],
    ['list_runs', { suite: 7 }],
    ['run_suite', { acknowledgedCalls: -1 }],
    ['run_suite', { acknowledgedCalls: 'all' }],
    ['show_run', { suite: 'a', run: ['x'] }],
  ] as const) {
    const result = await call(name, args)
    expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true)
    expect(text(result)).toMatch(/validation|invalid/i)
  }

  // as every agent does: list the tools first, so the client checks structured content against each output schema
  await client.listTools()
  const unsafe = await call('show_run', { suite: 'triage', run: '../../etc/passwd' })
  expect(unsafe.isError).toBe(true)
  expect(unsafe.structuredContent).toBeUndefined()
  expect(unsafe._meta?.['digline/error']).toMatchObject({ error: 'PathRefusedError', kind: 'refusal' })
  expect(text(unsafe)).toMatch(/^refused PathRefusedError: /)

  const missing = await call('show_run', { suite: 'triage', run: 'latest' })
  expect(text(missing)).toMatch(/^refused RunNotFoundError: suite triage of tenant acme has no run, so --run latest names nothing\n {2}next: /)

  // with --tenant or --store the workers would write elsewhere than the server reads: no launch
  const plan = await call('plan_run', {})
  expect(plan.isError).toBe(true)
  expect(text(plan)).toContain('refused UsageError: digline mcp: plan_run, run_suite and resume_run are not taken when the server was started with --tenant or --store')

  // still answering
  expect((await client.listTools()).tools.length).toBe(10)
})

test('list_reviews lists the labels of a suite or of one run, as digline review list --json does; an unknown run is refused', async () => {
  const storeDir = mkdtempSync(join(tmpdir(), 'digline-mcp-store-'))
  dirs.push(storeDir)
  const store = openStore({ store: storeDir })
  const doc = makeRun({ tenant: 'acme', suite: 'triage', results: 3 })
  await store.writeRun(doc)
  const label = newReview({
    reviewer: 'ana@example.com',
    tenant: 'acme',
    suite: 'triage',
    run: keyOf(doc),
    case_id: doc.results[0]!.case_id,
    answer_digest: answerDigestOf(doc.results[0]!),
    judges: { exact: 'disagree' },
    verdict: 'fail',
    note: 'wrong capital',
    created_at: '2026-12-02T10:00:00.000001Z',
  })
  await store.appendReview(label)
  await store.close()
  const { call, client } = await connected({ tenant: 'acme', store: storeDir })
  await client.listTools()

  const all = await call('list_reviews', { suite: 'triage' })
  expect(all.isError, text(all)).toBeFalsy()
  expect(all.structuredContent).toEqual({ tenant: 'acme', suite: 'triage', run: null, reviews: [label] })
  const ofRun = await call('list_reviews', { suite: 'triage', run: 'latest' })
  expect(ofRun.structuredContent).toMatchObject({ run: 'latest', reviews: [{ review_id: label.review_id, case_id: doc.results[0]!.case_id, note: 'wrong capital' }] })
  const none = await call('list_reviews', { suite: 'other' })
  expect(none.structuredContent).toEqual({ tenant: 'acme', suite: 'other', run: null, reviews: [] })

  const unknown = await call('list_reviews', { suite: 'triage', run: '20990101T000000000001Z-000000000000' })
  expect(unknown.isError).toBe(true)
  expect(unknown._meta?.['digline/error']).toMatchObject({ error: 'RunNotFoundError', kind: 'refusal' })
})
