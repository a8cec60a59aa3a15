// Run against run (SPEC §15, ADR 0230) through the host in-process, on both backends: any two runs
// of a suite compared over their shared cases with the baseline's intervals and exit codes; the
// case sets that differ counted; what changed between the runs said in words; the CLI's
// `compare --against` and `list`, and the MCP tool compare_runs, over the same store.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { mkdtempSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { main } from '../../src/cli/main.js'
import type { CaseResult, RunDocument } from '../../src/document/schema.js'
import { aggregate } from '../../src/driver/aggregate.js'
import { compareRunAgainst, openProjectSession, targetConfigDigest, type Store } from '../../src/host/index.js'
import { openStore } from '../../src/store/open-store.js'
import { createDiglineServer } from '../../src/mcp/server.js'
import { keyOf, makeRun, promoteFirst } from '../helpers/make-run.js'
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js'

const databases: TestDatabase[] = []
afterAll(async () => {
  for (const database of databases) await database.drop()
})

const STORES: { name: string; make(): Promise<string> }[] = [
  { name: 'file store', make: () => Promise.resolve(join(realpathSync(mkdtempSync(join(tmpdir(), 'digline-against-'))), '.digline')) },
  {
    name: 'team store',
    async make() {
      const database = await createTestDatabase('compare_against')
      databases.push(database)
      return database.url
    },
  },
]

/** One case per letter (p passes, f fails, e errors), ids from `first`; the suite allows a 5-point drop. */
function runOf(verdicts: string, createdAt: string, first = 0): RunDocument {
  const doc = makeRun({ results: 0, createdAt, suite: 'qa' })
  doc.results = [...verdicts].map((v, i): CaseResult => {
    const verdict = v === 'p' ? 'pass' : v === 'f' ? 'fail' : 'error'
    return {
      case_id: `c${String(first + i).padStart(3, '0')}`,
      verdict,
      score: verdict === 'error' ? null : verdict === 'pass' ? 1 : 0,
      passed_samples: verdict === 'pass' ? 1 : 0,
      reason: verdict === 'fail' ? 'the output does not equal the expected value' : null,
      error: verdict === 'error' ? { cause: 'target', message: 'connection reset' } : null,
      samples: [],
    }
  })
  doc.rules = { ...doc.rules, thresholds: { pass_rate: 0.5 }, tolerances: { pass_rate: 0.05 } }
  doc.aggregates = aggregate(doc.results, doc.rules)
  return doc
}

/** Run B: 40 cases c000–c039, all pass, model geo-v1. */
const B = runOf('p'.repeat(40), '2026-11-30T10:00:00.000001Z')
/** Run A: cases c002–c041 (2 only in B, 2 only in A); 20 of the 38 shared fail; another model and prompt file. */
const A: RunDocument = {
  ...runOf('f'.repeat(20) + 'p'.repeat(20), '2026-12-01T10:00:00.000001Z', 2),
  target_config: { model: 'geo-v2', temperature: 0, options: { top_p: 0.9 } },
  observed: { target_model: 'geo-v2-2026-12', judge_models: {} },
  artifacts: { 'prompts/system.md': 'a'.repeat(64) },
}

type Io = { out: string[]; err: string[] }
async function cli(argv: string[]): Promise<{ code: number } & Io> {
  const io: Io = { out: [], err: [] }
  const cwd = mkdtempSync(join(tmpdir(), 'digline-against-cwd-'))
  const code = await main(argv, { cwd, env: {}, stdout: (t: string) => io.out.push(t), stderr: (t: string) => io.err.push(t) } as Parameters<typeof main>[1])
  return { code, ...io }
}

async function mcpCall(locator: string, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const cwd = mkdtempSync(join(tmpdir(), 'digline-against-mcp-'))
  const flags = { tenant: 'acme', store: locator }
  const session = openProjectSession(cwd, flags, {})
  const server = createDiglineServer({ cwd, env: {}, flags, session, log: () => undefined, stopping: new AbortController().signal, track: () => undefined })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new Client({ name: 'unit', version: '0.0.0' })
  await client.connect(clientSide)
  await client.listTools()
  try {
    return (await client.callTool({ name, arguments: args })) as CallToolResult
  } finally {
    await client.close()
    await session.close()
  }
}

describe.each(STORES)('$name', ({ make }) => {
  let locator: string
  let store: Store
  const a = keyOf(A)
  const b = keyOf(B)

  test('A against B: the paired drop over the shared cases regresses (exit 1), the case sets and what changed are named', async () => {
    locator = await make()
    store = openStore({ store: locator })
    await store.writeRun(B)
    await store.writeRun(A)
    // A baseline exists and is left alone: --against puts B in its place.
    await promoteFirst(store, A, '2026-12-01T12:00:00.000001Z')
    const c = await compareRunAgainst(store, 'acme', 'qa', 'latest', b)
    expect(c).toMatchObject({ key: a, against: b, status: 'regressed', exit_code: 1, cases: { shared: 38, only_in_run: 2, only_in_against: 2, same: false } })
    const cmp = c.outcome.comparison
    expect(cmp).toMatchObject({ reference: 'run', status: 'compared', baseline: { key: b }, run: { key: a }, added: ['c040', 'c041'], removed: ['c000', 'c001'] })
    expect(cmp.difference!.n).toBe(38)
    expect(cmp.difference!.ci95!.high).toBeLessThan(-0.05)
    expect(cmp.flipped.pass_to_fail).toHaveLength(20)
    expect(c.flipped[0]).toMatchObject({ case_id: 'c002', direction: 'pass_to_fail', reason: 'the output does not equal the expected value', baseline_reason: null })
    expect(cmp.changes.target_config).toEqual({ added: ['options.top_p'], removed: [], changed: ['model'] })
    expect(cmp.changes.target_model).toEqual({ before: 'geo-v1-2026-01', after: 'geo-v2-2026-12' })
    expect(cmp.changes.files).toEqual({ artifacts: { added: ['prompts/system.md'], removed: [], changed: [] } })
    expect(cmp.warnings).toContain(`the target's declared config: changed model ("geo-v1" → "geo-v2"); added options.top_p`)
    expect(cmp.warnings).toContain(`the target reported another model: geo-v1-2026-01 in run ${b}, geo-v2-2026-12 in run ${a}`)
    expect(cmp.warnings).toContain('the files recorded in artifacts: added prompts/system.md')
  })

  test('B against A holds (exit 0); a run against itself shows no difference; an unknown run is refused by name', async () => {
    const back = await compareRunAgainst(store, 'acme', 'qa', b, a)
    expect(back).toMatchObject({ status: 'held', exit_code: 0, cases: { only_in_run: 2, only_in_against: 2 } })
    expect(back.outcome.comparison.flipped.fail_to_pass).toHaveLength(20)
    const self = await compareRunAgainst(store, 'acme', 'qa', a, a)
    expect(self).toMatchObject({ status: 'held', cases: { shared: 40, same: true } })
    expect(self.outcome.comparison.difference!.mean).toBe(0)
    expect(self.outcome.comparison.changes.words).toEqual([])
    await expect(compareRunAgainst(store, 'acme', 'qa', a, '20200101T000000000000Z-000000000000')).rejects.toMatchObject({ name: 'RunNotFoundError' })
  })

  test('the CLI: compare --against in text and JSON with the exit code, list with the target digest and model', async () => {
    const flags = ['--tenant', 'acme', '--store', locator]
    const text = await cli(['compare', '--suite', 'qa', '--run', a, '--against', b, ...flags])
    expect(text.code).toBe(1)
    const out = text.out.join('\n')
    expect(out).toContain(`against run ${b}`)
    expect(out).toContain('the case sets differ: 38 shared (the difference is taken over these), 2 only in run')
    expect(out).toContain(`only in run ${b} (2): c000, c001`)
    expect(out).toContain('regressed')
    const json = await cli(['compare', '--suite', 'qa', '--run', b, '--against', a, '--json', ...flags])
    expect(json.code).toBe(0)
    expect(JSON.parse(json.out.join(''))).toMatchObject({ key: b, against: a, status: 'held', exit_code: 0, cases: { shared: 38 }, comparison: { reference: 'run' } })
    const md = await cli(['compare', '--suite', 'qa', '--run', a, '--against', b, '--format', 'md', ...flags])
    expect(md.out.join('\n')).toContain('| | B (against) | A (this run) |')
    const missing = await cli(['compare', '--suite', 'qa', '--run', a, '--against', 'nope', ...flags])
    expect(missing.code).toBe(64)

    const list = (await cli(['list', '--suite', 'qa', ...flags])).out.join('\n')
    expect(list).toContain(`target ${targetConfigDigest(A.target_config)} geo-v2-2026-12`)
    expect(list).toContain(`target ${targetConfigDigest(B.target_config)} geo-v1-2026-01`)
    const listed = JSON.parse((await cli(['list', '--suite', 'qa', '--json', ...flags])).out.join('')) as { runs: { key: string; target_config_digest: string }[] }
    expect(listed.runs.find((r) => r.key === a)?.target_config_digest).toBe(targetConfigDigest(A.target_config))
  })

  test('the MCP tool compare_runs answers the same, read-only', async () => {
    const r = await mcpCall(locator, 'compare_runs', { suite: 'qa', run: a, against: b })
    expect(r.isError).toBeFalsy()
    expect(r.structuredContent).toMatchObject({ key: a, against: b, status: 'regressed', exit_code: 1, cases: { shared: 38, only_in_run: 2, only_in_against: 2 } })
    const refused = await mcpCall(locator, 'compare_runs', { suite: '../x', run: a, against: b })
    expect(refused.isError).toBe(true)
  })
})
