// The order test files start in (ADR 0170): those that never reach test/helpers/project.ts first,
// while the packed digline installs; the longest first within each group; the timed group last.
import { statSync } from 'node:fs'
import { resolve } from 'node:path'
import { expect, test } from 'vitest'
import type { TestSpecification, Vitest } from 'vitest/node'
import InstallAwareSequencer from '../helpers/install-aware-sequencer.js'

const ROOT = resolve(import.meta.dirname, '..', '..')
const spec = (path: string, groupOrder = 0) =>
  ({ moduleId: resolve(ROOT, path), project: { name: groupOrder === 0 ? 'parallel' : 'timed', config: { sequence: { groupOrder } } } }) as unknown as TestSpecification

/** A Vitest 4.1 cache (by key) or, with `bySpecification`, a Vitest 5 one whose lookup by key is deprecated and must not be used. */
function sequencer(durations: Record<string, number> = {}, bySpecification = false): InstallAwareSequencer {
  const byKey = (key: string) => (key in durations ? { duration: durations[key]!, failed: false } : undefined)
  const cache = bySpecification
    ? {
        getTestSpecificationResult: (s: TestSpecification) => byKey(`${s.project.name}:${s.moduleId.slice(ROOT.length + 1)}`),
        getFileTestResults: () => expect.unreachable('getFileTestResults is deprecated in Vitest 5'),
      }
    : { getFileTestResults: byKey }
  return new InstallAwareSequencer({ config: { root: ROOT }, cache } as unknown as Vitest)
}

const order = async (s: InstallAwareSequencer, specs: TestSpecification[]) => (await s.sort(specs)).map((x) => x.moduleId.slice(ROOT.length + 1))

test('on a fresh clone: the files needing no install first, each group by size, the timed group last', async () => {
  const files = ['test/e2e/resume.test.ts', 'test/unit/driver/aggregate.test.ts', 'test/e2e/shards.test.ts', 'test/store/journal.test.ts']
  const got = await order(sequencer(), [...files.map((f) => spec(f)), spec('test/e2e/models.test.ts', 1)])
  const size = (f: string) => statSync(resolve(ROOT, f)).size
  const bySize = (a: string, b: string) => size(b) - size(a)
  expect(got).toEqual([
    ...['test/unit/driver/aggregate.test.ts', 'test/store/journal.test.ts'].sort(bySize),
    ...['test/e2e/resume.test.ts', 'test/e2e/shards.test.ts'].sort(bySize),
    'test/e2e/models.test.ts',
  ])
})

test('a file reaching the project helper through another helper counts as needing the install', async () => {
  // stdio-server.test.ts imports project.ts itself and through mcp-client.ts; crash-run.test.ts reaches neither
  const got = await order(sequencer(), [spec('test/mcp/stdio-server.test.ts'), spec('test/reliability/crash-run.test.ts')])
  expect(got).toEqual(['test/reliability/crash-run.test.ts', 'test/mcp/stdio-server.test.ts'])
})

test.each([
  ['4.1: by key', false],
  ['5: by test specification', true],
])('when Vitest remembers every file (%s), the longest by its last duration goes first', async (_, bySpecification) => {
  const durations = { 'parallel:test/unit/driver/aggregate.test.ts': 9_000, 'parallel:test/store/journal.test.ts': 10 }
  const got = await order(sequencer(durations, bySpecification), [spec('test/store/journal.test.ts'), spec('test/unit/driver/aggregate.test.ts')])
  expect(got).toEqual(['test/unit/driver/aggregate.test.ts', 'test/store/journal.test.ts'])
})
