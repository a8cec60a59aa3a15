// The journal writes what it encodes without reading it back first (the write path does each thing
// once), so this pins the round trip instead: every kind of record encodes to a line that decodes
// to the same value, with odd strings, unicode and numbers at the edges of what JSON carries.
import { describe, expect, it } from 'vitest'
import type { CaseResult, Observed } from '../../../src/document/schema.js'
import { decodeLine, encodeCase, encodeDeclared, encodeHeader, encodeLine, encodeObserved, type JournalRecord } from '../../../src/store/journal-format.js'
import { JournalPlanner } from '../../../src/store/journal-planner.js'
import { keyFor } from '../../../src/suite/keys.js'
import { JOURNAL_VERSION, type JournalHeader } from '../../../src/store/journal.js'

const BINDING = { tenant: 'acme', suite: 'capitals', key: '20261129T223956.123456Z-3f9a0c1b2d4e' }

const ODD = [
  '',
  ' ',
  '"quoted" \\back\\slash/',
  'tab\there\nnew line\r\n',
  '\0nul\u0001\u001f\u007f',
  '\u2028\u2029',
  'ü Ω 漢字 עברית',
  '👩‍🔬🏳️‍🌈',
  '\ud800 lone',
  '\udfff',
  'x'.repeat(4096),
]
const NUMBERS = [Number.MAX_SAFE_INTEGER, 2 ** 53 + 2, 1.7976931348623157e308, 5e-324, 1e21, 123456789.12345679, -1e-7, 0.1 + 0.2]

function decoded(line: Buffer): JournalRecord {
  expect(line[line.length - 1]).toBe(0x0a)
  expect(line.subarray(0, -1).includes(0x0a)).toBe(false)
  const result = decodeLine(line.subarray(0, -1), BINDING)
  if (!result.ok) throw new Error(`did not decode: ${result.why}`)
  return result.record
}

function header(overrides: Partial<JournalHeader> = {}): JournalHeader {
  return {
    journal_version: JOURNAL_VERSION,
    leg: 1,
    created_at: '2026-11-29T22:39:56.123456Z',
    started_at: '2026-11-29T22:40:00.000001Z',
    digline_version: '0.1.0',
    tenant: 'acme',
    environment: 'ci ü',
    suite: 'capitals',
    config_hash: '3f9a0c1b2d4e',
    cases_digest: 'c0ffee00c0ffee00',
    artifacts: Object.fromEntries(ODD.map((s, i) => [`prompts/${i}-${s.slice(0, 20)}.txt`, s])),
    target_config: { model: 'geo-v1', odd: ODD, numbers: NUMBERS, nested: { deeper: [null, true, { '': 'empty key' }] } },
    judge_config: { scorers: [{ name: 'exact 🤖', config: { max: Number.MAX_SAFE_INTEGER, text: '\u2028' }, pass_at: 0.75 }] },
    record_responses: true,
    git_commit: null,
    lease: { host: 'höst', boot: null, pid: 2 ** 22, start_time: 2 ** 40 },
    ...overrides,
  }
}

function caseWith(text: string, index: number): CaseResult {
  const number = NUMBERS[index % NUMBERS.length]!
  return {
    case_id: `case ${text.slice(0, 40)}`,
    verdict: index % 3 === 0 ? 'error' : index % 3 === 1 ? 'pass' : 'fail',
    score: index % 3 === 0 ? null : 1 / 3,
    passed_samples: index,
    reason: text,
    error: index % 3 === 0 ? { cause: 'target', message: `failed: ${text}` } : null,
    samples: [
      {
        pass: true,
        score: 2 / 3,
        scorers: [{ name: text, pass: true, score: 1, reason: text, usage: { input_tokens: Number.MAX_SAFE_INTEGER, output_tokens: 0 } }],
        usage: { input_tokens: 2 ** 31, output_tokens: 2 ** 32 + 1 },
        latency_ms: 2 ** 33,
        cached: true,
        output: { text, number, list: [text, number, null, false], nested: { [text]: number } },
      },
      { pass: false, score: 0, scorers: [] },
    ],
    target_cost: Math.abs(number),
    input: [text, number],
    expected: { text, big: number },
  }
}

describe('every record kind reads back as the value it was encoded from', () => {
  it('the header, with odd strings, unicode and big numbers in its configs', () => {
    for (const h of [header(), header({ shard: '3/4', git_commit: 'abc123', lease: { host: '', boot: 'b', pid: 1, start_time: null } })]) {
      expect(decoded(encodeHeader(BINDING, h))).toEqual({ kind: 'header', header: h })
    }
  })

  it('the declared cases, ids of every kind', () => {
    const declared = { samples: 7, digests: Object.fromEntries(ODD.map((s, i) => [`c-${i}-${s}`, `d${String(i).padStart(11, '0')}`])) }
    expect(decoded(encodeDeclared(BINDING, declared))).toEqual({ kind: 'cases', declared })
    const none = { samples: 1, digests: {} }
    expect(decoded(encodeDeclared(BINDING, none))).toEqual({ kind: 'cases', declared: none })
  })

  it('observed identities (judge names come back in sorted order, same value)', () => {
    const all: Observed[] = [
      { target_model: null, judge_models: {} },
      { target_model: 'geo-v1-2026-01', judge_models: { zeta: 'z', alpha: '\u2028', ü: '漢字' } },
      ...ODD.map((s) => ({ target_model: s, judge_models: { [s]: s } })),
    ]
    for (const observed of all) expect(decoded(encodeObserved(BINDING, observed))).toEqual({ kind: 'observed', observed })
  })

  it('case records, every verdict, cause, optional field and odd text', () => {
    for (const [i, text] of ODD.entries()) {
      const result = caseWith(text, i)
      const cause = result.error?.cause ?? null
      const record = decoded(encodeCase(BINDING, result, cause))
      expect(record).toEqual({ kind: 'case', cause, result })
    }
    for (const cause of ['target', 'scorer', 'mapper'] as const) {
      const result: CaseResult = { case_id: 'c', verdict: 'error', score: null, passed_samples: 0, reason: null, error: { cause, message: 'm' }, samples: [] }
      expect(decoded(encodeCase(BINDING, result, cause))).toEqual({ kind: 'case', cause, result })
    }
  })

  it('big numbers keep every digit JSON carries', () => {
    for (const n of NUMBERS) {
      const result: CaseResult = { case_id: String(n), verdict: 'pass', score: 1, passed_samples: 1, reason: null, error: null, samples: [], target_cost: Math.abs(n), input: n }
      const record = decoded(encodeCase(BINDING, result, null))
      expect(record.kind === 'case' && record.result.input).toBe(n)
      expect(record.kind === 'case' && record.result.target_cost).toBe(Math.abs(n))
    }
  })
})

describe('a leg read whole by the planner', () => {
  // The planner decodes a leg's text once and slices each line's JSON from it; with a non-ASCII
  // character the text's offsets are not the bytes', and the lines must still be the same lines.
  const place = { tenant: 'acme', suite: 'capitals', key: keyFor(header().created_at, header().config_hash) }
  function leg(texts: readonly string[]): { bytes: Buffer; results: CaseResult[] } {
    const results = texts.map((text, i) => ({ ...caseWith(text, i), case_id: `c${i}` }))
    const declared = { samples: 2, digests: Object.fromEntries(results.map((r) => [r.case_id, 'd'])) }
    const lines = [encodeHeader(place, header()), encodeDeclared(place, declared), ...results.map((r) => encodeCase(place, r, r.error?.cause ?? null))]
    return { bytes: Buffer.concat(lines), results }
  }

  for (const [name, texts] of [
    ['ASCII only', ['a', 'b c', '"quoted"']],
    ['every odd text, multi-byte characters before later lines', ODD],
  ] as const) {
    it(`${name}: every case comes back as written, and a torn tail is dropped`, () => {
      const { bytes, results } = leg(texts)
      const torn = Buffer.concat([bytes, encodeCase(place, results[0]!, null).subarray(0, 20)])
      const planner = new JournalPlanner(place)
      planner.addLeg({ leg: 1, file: 'leg', bytes: torn })
      expect([...planner.done.values()]).toEqual(results)
    })
  }

  it('a changed byte after a multi-byte character is refused on its own line', () => {
    const { bytes } = leg(ODD)
    const lines = bytes.toString('latin1').split('\n')
    const target = lines.findIndex((l, i) => i >= 2 && Buffer.byteLength(l, 'latin1') !== Buffer.from(l, 'latin1').toString('utf8').length) + 2
    const at = bytes.indexOf('"reason"', Buffer.from(lines.slice(0, target - 1).join('\n')).length)
    const changed = Buffer.from(bytes)
    changed[at + 1] = 'R'.charCodeAt(0)
    expect(() => new JournalPlanner(place).addLeg({ leg: 1, file: 'leg', bytes: changed })).toThrow(new RegExp(`leg line ${target} does not match its checksum`))
  })
})

describe('declared cases: the hand-written check agrees with the schema', () => {
  const line = (json: string) => encodeLine(BINDING, json).subarray(0, -1)
  const record = (body: string) => decodeLine(line(`{"kind":"cases","run":"${BINDING.key}",${body}}`), BINDING)

  it('accepts what the schema accepts, giving back the same value', () => {
    expect(record('"samples":3,"digests":{"a":"1","b":"2"}')).toEqual({ ok: true, record: { kind: 'cases', declared: { samples: 3, digests: { a: '1', b: '2' } } } })
    expect(record('"samples":3,"min_samples":1,"digests":{}')).toEqual({ ok: true, record: { kind: 'cases', declared: { samples: 3, min_samples: 1, digests: {} } } })
  })

  it('a __proto__ id is dropped by the schema, as it always was', () => {
    expect(record('"samples":1,"digests":{"a":"1","__proto__":"2"}')).toEqual({ ok: true, record: { kind: 'cases', declared: { samples: 1, digests: { a: '1' } } } })
  })

  it('refuses what the schema refuses, in its words', () => {
    const refusals: [string, RegExp][] = [
      ['"samples":0,"digests":{}', /declared-cases record at samples/],
      ['"samples":1.5,"digests":{}', /declared-cases record at samples/],
      ['"samples":1,"min_samples":0,"digests":{}', /declared-cases record at min_samples/],
      ['"samples":1,"digests":{"a":1}', /declared-cases record at digests\.a/],
      ['"samples":1,"digests":["x"]', /declared-cases record at digests/],
      ['"samples":1', /declared-cases record at digests/],
    ]
    for (const [body, why] of refusals) {
      const decoded = record(body)
      expect(decoded.ok).toBe(false)
      expect(!decoded.ok && decoded.why).toMatch(why)
    }
  })
})
