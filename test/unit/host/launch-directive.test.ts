// The launch directives: one codec that encodes, clears and validates what the workers read.
import { expect, test } from 'vitest'
import { decodeDirective, decodeReports, decodeShard, encodeDirective, encodeReports, encodeShard } from '../../../src/host/launch/launch-directive.js'

const KEY = '20261129T223956123456Z-07351270b932'
const rejudge = { into: 's', suite: 's', key: KEY, created_at: '2026-11-29T22:39:56.123456Z', tenant: 'acme', store: '/tmp/store' }

test('a directive round-trips, and encoding one clears the others', () => {
  const resume = encodeDirective({ DIGLINE_REJUDGE: JSON.stringify(rejudge), PATH: '/bin' }, { kind: 'resume', runs: { s: KEY }, keepErrors: true })
  expect(resume.DIGLINE_REJUDGE).toBeUndefined()
  expect(resume.PATH).toBe('/bin')
  expect(decodeDirective(resume)).toEqual({ kind: 'resume', runs: { s: KEY }, keepErrors: true })
  const replay = encodeDirective(resume, { kind: 'rejudge', value: rejudge })
  expect(replay.DIGLINE_RESUME).toBeUndefined()
  expect(replay.DIGLINE_KEEP_ERRORS).toBeUndefined()
  expect(decodeDirective(replay)).toEqual({ kind: 'rejudge', value: rejudge })
  expect(decodeDirective(encodeDirective(replay, { kind: 'fresh' }))).toEqual({ kind: 'fresh' })
})

test('a directive set by hand that does not decode is refused by name', () => {
  for (const env of [
    { DIGLINE_RESUME: 'not json' },
    { DIGLINE_RESUME: '["s"]' },
    { DIGLINE_RESUME: '{"../x":"k"}' },
    { DIGLINE_REJUDGE: JSON.stringify({ ...rejudge, store: 'relative' }) },
    { DIGLINE_REJUDGE: JSON.stringify({ ...rejudge, extra: 1 }) },
    { DIGLINE_RESUME: JSON.stringify({ s: KEY }), DIGLINE_REJUDGE: JSON.stringify(rejudge) },
  ]) {
    expect(() => decodeDirective(env), JSON.stringify(env)).toThrow(expect.objectContaining({ name: 'UsageError' }))
  }
})

// shards:
test('the merge directive round-trips and is cleared by any other; the shard is kept unless a launch sets its own', () => {
  const runs = { s: { key: KEY, stores: ['/ci/shard-1/.digline', '/ci/shard-2/.digline'] } }
  const merge = encodeDirective({ DIGLINE_RESUME: JSON.stringify({ s: KEY }), DIGLINE_SHARD: '2/4' }, { kind: 'merge', runs })
  expect(merge.DIGLINE_RESUME).toBeUndefined()
  expect(decodeDirective(merge)).toEqual({ kind: 'merge', runs })
  expect(decodeDirective(encodeDirective(merge, { kind: 'fresh' }))).toEqual({ kind: 'fresh' })
  expect(decodeShard(merge)).toEqual({ index: 2, count: 4 })
  expect(decodeShard(encodeShard(merge, { index: 1, count: 3 }))).toEqual({ index: 1, count: 3 })
  expect(decodeShard(encodeShard({}, undefined))).toBeUndefined()
  for (const env of [
    { DIGLINE_MERGE: JSON.stringify({ s: { key: KEY, stores: ['relative'] } }) },
    { DIGLINE_MERGE: JSON.stringify(runs), DIGLINE_REJUDGE: JSON.stringify(rejudge) },
  ]) {
    expect(() => decodeDirective(env), JSON.stringify(env)).toThrow(expect.objectContaining({ name: 'UsageError' }))
  }
  expect(() => decodeShard({ DIGLINE_SHARD: '5/4' })).toThrow(expect.objectContaining({ name: 'InvalidShardError' }))
})

test('the reports a launch asks for (mcp) ride on a directive, are cleared by the next one, and must be absolute paths', () => {
  const env = encodeReports(encodeDirective({ PATH: '/bin' }, { kind: 'resume', runs: { s: KEY }, keepErrors: false }), { plan: '/tmp/plan.jsonl' })
  expect(decodeDirective(env)).toEqual({ kind: 'resume', runs: { s: KEY }, keepErrors: false })
  expect(decodeReports(env)).toEqual({ plan: '/tmp/plan.jsonl' })
  expect(decodeReports(encodeDirective(env, { kind: 'fresh' }))).toEqual({})
  expect(decodeReports(encodeReports({}, { progress: '/tmp/progress.jsonl' }))).toEqual({ progress: '/tmp/progress.jsonl' })
  expect(() => encodeReports({}, { plan: 'plan.jsonl' })).toThrow()
  for (const env of [{ DIGLINE_PLAN: 'relative.jsonl' }, { DIGLINE_PROGRESS: './p' }]) {
    expect(() => decodeReports(env), JSON.stringify(env)).toThrow(expect.objectContaining({ name: 'UsageError' }))
  }
})
