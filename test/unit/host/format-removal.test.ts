// The words of `digline delete`: removed is said only of what was removed.
import { expect, test } from 'vitest'
import { describeRemoval, removalRecordsWhere } from '../../../src/host/lifecycle/format-removal.js'
import type { Removal } from '../../../src/store/removal.js'

const asked = { tenant: 'acme', suite: 's', key: 'K' }
const run = (over: Partial<Removal['run']> = {}) => ({ ref: asked, created_at: null, legs: 0, document: false, ...over })
const removal = (over: Partial<Removal> = {}): Removal => ({ run: run(), replays: [], unread: 0, nothing: true, alreadyRemovedAt: undefined, ...over })

test('nothing, never removed before: no line claims a removal', () => {
  const lines = describeRemoval(removal(), asked)
  expect(lines).toEqual(['There is no run K in suite s of tenant acme to remove: no document, journal leg or replay is filed under that key. Nothing was removed.'])
})

test('nothing, removed before: says when', () => {
  expect(describeRemoval(removal({ alreadyRemovedAt: '2026-01-01T00:00:00.000001Z' }), asked)[0]).toBe(
    'Run K of suite s (tenant acme) was already removed at 2026-01-01T00:00:00.000001Z; nothing is filed under it now, and nothing was removed.',
  )
})

test('a legs-only run, a run with nothing left but its replays, and one unread document', () => {
  expect(describeRemoval(removal({ nothing: false, run: run({ legs: 2 }) }), asked)).toContain('  run K of suite s: 2 journal legs removed (it had no document)')
  const onlyReplays = describeRemoval(removal({ nothing: false, replays: [{ ...run({ document: true }), ref: { ...asked, suite: 't', key: 'R' } }], unread: 1 }), asked)
  expect(onlyReplays).toContain('  replay R of suite t: its document removed')
  expect(onlyReplays).toContain('  run K of suite s: nothing of it was left to remove')
  expect(onlyReplays.at(-1)).toBe('1 document in tenant acme could not be read. Whether it was a replay of K is not known, and it was not removed.')
})

test('the removal records are named where the store keeps them: a directory of the file store, a table of the team store', () => {
  const done = removal({ nothing: false, run: run({ document: true }) })
  const team = describeRemoval(done, asked, new Set(), removalRecordsWhere('postgres://digline:s3cret@db.example:5432/evals', 'acme'))
  expect(team.at(-1)).toBe(
    'A removal record for each run is kept in the digline_removals table of the team store postgres://db.example:5432/evals (tenant acme): no writer files these keys again.',
  )
  expect(team.join('\n')).not.toContain('.digline')
  expect(team.join('\n')).not.toContain('s3cret')
  const file = describeRemoval(done, asked, new Set(), removalRecordsWhere('/work/p/.digline', 'acme'))
  expect(file.at(-1)).toBe('A removal record for each run is kept under /work/p/.digline/acme/removed/: no writer files these keys again.')
})
