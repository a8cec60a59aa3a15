// SPEC §4: DIGLINE_CREATED_AT must be a real instant, refused by name (64) otherwise.
import { expect, test } from 'vitest'
import { InvalidOptionsError } from '../../../src/suite/errors.js'
import { isCreatedAt, launchCreatedAt } from '../../../src/suite/keys.js'

const refusal = (value: string): unknown => {
  try {
    launchCreatedAt({ DIGLINE_CREATED_AT: value })
    return undefined
  } catch (error) {
    return error
  }
}

test.each([
  ['a day February does not have', '2026-02-30T00:00:00.000000Z'],
  ['hour 24', '2026-03-01T24:00:00.000000Z'],
  ['29 February of a common year', '2027-02-29T12:00:00.000000Z'],
  ['month 13', '2026-13-01T00:00:00.000000Z'],
  ['day 0', '2026-01-00T00:00:00.000000Z'],
  ['31 April', '2026-04-31T00:00:00.000000Z'],
  ['minute 60', '2026-03-01T10:60:00.000000Z'],
  ['a leap second', '2026-12-31T23:59:60.000000Z'],
])('%s is refused, naming the variable', (_label, value) => {
  const error = refusal(value)
  expect(error).toBeInstanceOf(InvalidOptionsError)
  expect((error as InvalidOptionsError).message).toContain('DIGLINE_CREATED_AT')
  expect((error as InvalidOptionsError).message).toContain('not a real instant')
  expect(isCreatedAt(value)).toBe(false)
})

test.each(['2028-02-29T00:00:00.000000Z', '2000-02-29T23:59:59.999999Z', '2026-11-29T22:39:56.123456Z', '2026-12-31T23:59:59.000000Z'])(
  '%s is a real instant and kept as given',
  (value) => {
    expect(launchCreatedAt({ DIGLINE_CREATED_AT: value })).toBe(value)
  },
)

test('a value not in the format is refused as such', () => {
  expect((refusal('yesterday') as Error).message).toMatch(/DIGLINE_CREATED_AT="yesterday" is not ISO-8601 UTC \(YYYY-MM-DDTHH:MM:SS with up to 6 fraction digits and Z\)/)
  for (const value of ['2026-11-29T22:39:56.1234567Z', '2026-11-29T22:39:56.123+00:00', '2026-11-29 22:39:56Z', '2026-11-29T22:39:56.123', '2026-11-29T22:39:56.Z'])
    expect(refusal(value), value).toBeInstanceOf(InvalidOptionsError)
})

// Issue 23 item 17: what `new Date().toISOString()` prints is accepted, and every shard given it keys alike.
test.each([
  ['2026-11-29T22:39:56Z', '2026-11-29T22:39:56.000000Z'],
  ['2026-11-29T22:39:56.1Z', '2026-11-29T22:39:56.100000Z'],
  ['2026-11-29T22:39:56.123Z', '2026-11-29T22:39:56.123000Z'],
  ['2026-11-29T22:39:56.12345Z', '2026-11-29T22:39:56.123450Z'],
])('%s (up to 6 fraction digits) is normalised to six: %s', (given, kept) => {
  expect(launchCreatedAt({ DIGLINE_CREATED_AT: given })).toBe(kept)
  expect(isCreatedAt(kept)).toBe(true)
})

test('the instant Node prints is accepted as it is', () => {
  const now = new Date().toISOString()
  expect(launchCreatedAt({ DIGLINE_CREATED_AT: now })).toBe(`${now.slice(0, -1)}000Z`)
})

test('a day that does not exist is refused also with fewer fraction digits', () => {
  expect((refusal('2026-02-30T00:00:00.000Z') as Error).message).toContain('not a real instant')
})
