// The split of a suite's cases among shards: every case in exactly one shard, shares within one case
// of each other, the same split whatever the order the cases are declared in; and the leg numbers
// by which each shard's legs are told apart.
import { expect, test } from 'vitest'
import { createHash } from 'node:crypto'
import { casesOfShard, nextLegOf, parseShard, positionBits, rankOrder, shardOfEach, shardOfLeg, sharesOf, splitCases } from '../../../src/host/launch/shard.js'
import { seededRandom } from '../../../src/stats/prng.js'

function shuffled<T>(items: readonly T[], seed: number): T[] {
  const random = seededRandom(seed)
  const out = [...items]
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}

test.each([1, 2, 3, 4, 7, 16])('into %i shards: each case once, balanced within one, independent of declaration order', (count) => {
  for (const size of [0, 1, 5, 97, 1000]) {
    const ids = Array.from({ length: size }, (_, i) => `case-${i}`)
    const owner = splitCases(ids, count)
    expect(owner.size).toBe(size)
    const shares = Array.from({ length: count }, (_, i) => casesOfShard(ids, { index: i + 1, count }).size)
    expect(shares.reduce((a, b) => a + b, 0)).toBe(size)
    expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1)
    expect(splitCases(shuffled(ids, size + count), count)).toEqual(owner)
  }
})

test('the split follows the ids, not their positions: shard of an id does not move when others are declared before it', () => {
  const ids = Array.from({ length: 200 }, (_, i) => `q${i}`)
  const a = splitCases(ids, 4)
  const b = splitCases([...ids].reverse(), 4)
  for (const id of ids) expect(b.get(id)).toBe(a.get(id))
})

test('i/N is read strictly', () => {
  expect(parseShard('2/4', 'x')).toEqual({ index: 2, count: 4 })
  for (const bad of ['0/4', '5/4', '2', '2/0', '-1/4', '1.5/4', 'a/b', '']) expect(() => parseShard(bad, 'x'), bad).toThrow(expect.objectContaining({ name: 'InvalidShardError' }))
})

test("a shard's legs are its own: i, i+N, i+2N… and never another shard's", () => {
  const legs: number[] = []
  for (let round = 0; round < 3; round++) {
    for (let index = 1; index <= 4; index++) {
      const leg = nextLegOf({ index, count: 4 }, legs)
      expect(shardOfLeg(leg, 4)).toBe(index)
      expect(legs).not.toContain(leg)
      legs.push(leg)
    }
  }
  expect(nextLegOf({ index: 3, count: 4 }, [])).toBe(3)
  expect(nextLegOf({ index: 3, count: 4 }, [1, 2, 3, 4, 6])).toBe(7)
})

/** The split as ADR 0050 states it, compared as strings: the hex sha256 of each id, then the id. */
function splitByHexRank(ids: readonly string[], count: number): Map<string, number> {
  const ranked = [...new Set(ids)].map((id) => ({ id, rank: createHash('sha256').update(id, 'utf8').digest('hex') }))
  ranked.sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  return new Map(ranked.map(({ id }, position) => [id, (position % count) + 1]))
}

test('the split is the one the hex ranks give, ids repeated, empty and non-ASCII ids included', () => {
  const random = seededRandom(61)
  const ids = Array.from({ length: 5000 }, (_, i) => (i % 97 === 0 ? `é-${i}` : i % 89 === 0 ? '' : `c${Math.floor(random() * 4000)}`))
  for (const count of [1, 2, 3, 4, 16]) expect([...splitCases(ids, count)]).toEqual([...splitByHexRank(ids, count)])
})

test('ids whose keys tie are ordered by their whole hash, then the id: the same order as the hex ranks', () => {
  const ids = Array.from({ length: 3000 }, (_, i) => `case-${i}`)
  const byHex = [...splitByHexRank(ids, 1).keys()]
  // 46 position bits leave 7 of the hash in a key: about 23 ids share each key
  for (const bits of [positionBits(ids.length), 40, 46, 52]) expect(Array.from(rankOrder(ids, bits), (i) => ids[i])).toEqual(byHex)
})

test("shardOfEach gives each distinct id the shard splitCases maps it to, at the id's own index", () => {
  const random = seededRandom(67)
  const ids = [...new Set(Array.from({ length: 3000 }, (_, i) => (i % 97 === 0 ? `é-${i}` : `c${Math.floor(random() * 5000)}`)))]
  for (const count of [1, 2, 3, 4, 16]) {
    const owner = splitCases(ids, count)
    expect(Array.from(shardOfEach(ids, count))).toEqual(ids.map((id) => owner.get(id)))
    expect(Array.from(shardOfEach(shuffled(ids, count), count))).toEqual(shuffled(ids, count).map((id) => owner.get(id)))
  }
})

test("sharesOf counts each shard's share as splitCases deals it, and how much of it the holder says it journaled", () => {
  const ids = Array.from({ length: 1000 }, (_, i) => `c${i}`)
  const journaledIds = new Set(ids.filter((_, i) => i % 3 !== 0))
  for (const count of [1, 3, 4]) {
    const owner = splitCases(ids, count)
    const { share, journaled } = sharesOf(ids, count, (index, id) => index !== 2 && journaledIds.has(id))
    for (let index = 1; index <= count; index++) {
      const mine = ids.filter((id) => owner.get(id) === index)
      expect([share[index], journaled[index]]).toEqual([mine.length, index === 2 ? 0 : mine.filter((id) => journaledIds.has(id)).length])
    }
    expect(share[0]).toBe(0)
  }
})
