// A real disk that fills up, and a real read-only store, under a real `vitest run` (SPEC §6, §9): the
// store is a 64 KiB tmpfs. When a journal append hits ENOSPC the run stops with StoreWriteError and
// exit 2, the journal ends on its last whole record, and once space is freed `digline run --resume`
// finishes the run byte-identical to one that never ran out of space. A store on a read-only
// filesystem refuses before the target is called once, and nothing in it changes.
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { FileResultStore } from '../../src/store/file/store.js'
import { callLines, killAfterCalls, killSuite } from '../helpers/kill.js'
import { defaultConfig, makeProject, installRoot, type Project } from '../helpers/project.js'
import { mountTmpfs, type Tmpfs } from '../helpers/tmpfs.js'
import { snapshotTree, tempFilesIn } from '../store/tree-snapshot.js'
import { figure } from './support/figures.js'

const CREATED_AT = '2026-11-29T22:39:56.123456Z'
const CASES = 40
const mounts: Tmpfs[] = []

afterAll(() => {
  for (const m of mounts.reverse()) m.unmount()
})

function tmpfs(size: string): Tmpfs {
  const m = mountTmpfs(size, installRoot())
  mounts.push(m)
  return m
}

/** 40 cases whose journal records carry ~3 KB each (recorded answers): ~120 KB, twice what 64 KiB holds. */
function fillerSuite(): string {
  return `import { evalSuite, scorers } from 'digline'
import { appendFileSync } from 'node:fs'

const pad = 'p'.repeat(1500)
evalSuite({
  name: 'filler',
  cases: Array.from({ length: ${CASES} }, (_, i) => ({ id: 'c' + String(i).padStart(2, '0'), input: i, expected: pad + i })),
  target: {
    config: { model: 'det-v1' },
    async ask(i, ctx) {
      appendFileSync('calls.log', ctx.caseId + ':' + ctx.sample + '\\n')
      return { output: pad + i, model: 'det-v1-2026' }
    },
  },
  samples: 1,
  scorers: [scorers.exact()],
  recordResponses: true,
  concurrency: 1,
})
`
}

function projectWithStore(store: string | undefined, suite: string, name = 'filler'): Project {
  return makeProject({
    'vitest.config.ts': defaultConfig('acme', store === undefined ? '' : `, store: ${JSON.stringify(store)}`),
    [`evals/${name}.eval.ts`]: suite,
  })
}

function runDocument(root: string, suite: string): Buffer {
  const dir = join(root, 'acme', 'runs', suite)
  const files = readdirSync(dir).filter((f) => f.endsWith('.json') && !f.startsWith('.'))
  expect(files).toHaveLength(1)
  return readFileSync(join(dir, files[0]!))
}

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

describe('a disk that fills up in the middle of a run (64 KiB tmpfs)', () => {
  test('ENOSPC stops the run by name; the journal resumes after space is freed, byte-identical, calling only what was not journaled', async () => {
    const reference = projectWithStore(undefined, fillerSuite())
    const clean = await reference.vitest([], { DIGLINE_CREATED_AT: CREATED_AT })
    expect(clean.code, clean.stdout + clean.stderr).toBe(0)
    const expected = sha(runDocument(join(reference.dir, '.digline'), 'filler'))

    const disk = tmpfs('64k')
    const root = join(disk.dir, '.digline')
    const project = projectWithStore(root, fillerSuite())
    const full = await project.vitest([], { DIGLINE_CREATED_AT: CREATED_AT })
    const output = full.stdout + full.stderr
    expect(full.code, output).toBe(2)
    expect(output).toContain('StoreWriteError')
    expect(output).toContain('ENOSPC')
    expect(output).not.toMatch(/digline exit 0/)

    const pendingDir = join(root, 'acme', 'runs', 'filler', '.pending')
    const legs = readdirSync(pendingDir)
    expect(legs).toHaveLength(1)
    const bytes = readFileSync(join(pendingDir, legs[0]!))
    expect(bytes.at(-1), 'the partial record was cut back to the last whole one').toBe(0x0a)
    const [pending] = await new FileResultStore({ root }).pending('acme', 'filler')
    expect(pending?.refusal).toBeUndefined()
    const journaled = pending!.done.size
    expect(journaled).toBeGreaterThan(5)
    expect(journaled).toBeLessThan(CASES)
    expect(tempFilesIn(snapshotTree(disk.dir))).toEqual([])
    const callsBefore = callLines(project).length

    disk.resize('1m')
    const resumed = await project.digline(['run', '--resume'])
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0)
    expect(callLines(project).length - callsBefore).toBe(CASES - journaled)
    expect(sha(runDocument(root, 'filler'))).toBe(expected)
    expect(await new FileResultStore({ root }).pending('acme', 'filler')).toEqual([])
    expect(tempFilesIn(snapshotTree(disk.dir))).toEqual([])
    figure('cases lost', 0, `disk full end to end: ${journaled} of ${CASES} cases journaled before ENOSPC, none called twice after the resume`)
  })
})

describe('a read-only store refuses before work begins', () => {
  test('an empty store on a filesystem mounted read-only: StoreWriteError EROFS, exit 2, no call to the target', async () => {
    const disk = tmpfs('1m')
    disk.remount('ro')
    const project = projectWithStore(join(disk.dir, '.digline'), fillerSuite())
    const result = await project.vitest([], { DIGLINE_CREATED_AT: CREATED_AT })
    expect(result.code, result.stdout + result.stderr).toBe(2)
    expect(result.stdout + result.stderr).toContain('EROFS')
    expect(callLines(project)).toEqual([])
    expect(snapshotTree(disk.dir)).toEqual([{ path: '.', type: 'dir' }])
  })

  test('a store with runs, remounted read-only: no call to the target, nothing changed', async () => {
    const disk = tmpfs('1m')
    const root = join(disk.dir, '.digline')
    const project = projectWithStore(root, fillerSuite())
    expect((await project.vitest([], { DIGLINE_CREATED_AT: CREATED_AT })).code).toBe(0)
    const before = snapshotTree(disk.dir)
    const calls = callLines(project).length
    disk.remount('ro')
    const result = await project.vitest([])
    expect(result.code, result.stdout + result.stderr).toBe(2)
    expect(result.stdout + result.stderr).toContain('EROFS')
    expect(callLines(project).length).toBe(calls)
    expect(snapshotTree(disk.dir)).toEqual(before)
  })

  test('`digline run --resume` of a killed run on a store remounted read-only: no call to the target, the journal untouched', async () => {
    const disk = tmpfs('1m')
    const root = join(disk.dir, '.digline')
    const project = projectWithStore(root, killSuite({ concurrency: 2 }), 'killed')
    await killAfterCalls(project, 20, { DIGLINE_CREATED_AT: CREATED_AT })
    expect(existsSync(join(root, 'acme', 'runs', 'killed', '.pending'))).toBe(true)
    disk.remount('ro')
    const before = snapshotTree(disk.dir)
    const calls = callLines(project).length
    const result = await project.digline(['run', '--resume'])
    expect(result.code, result.stdout + result.stderr).toBe(2)
    expect(result.stdout + result.stderr).toContain('EROFS')
    expect(callLines(project).length).toBe(calls)
    expect(snapshotTree(disk.dir)).toEqual(before)
    figure('kills', 1, 'a run killed on a store then remounted read-only')
  })
})
