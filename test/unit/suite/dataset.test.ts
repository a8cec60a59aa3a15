// dataset(): real files in a temp directory, read in-process; every bad-row refusal by file, place and field.
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { readDataset, type DatasetOptions } from '../../../src/suite/dataset.js'
import { InvalidDatasetError, InvalidSuiteError } from '../../../src/suite/errors.js'
import { resolveSuite } from '../../../src/suite/resolve-suite.js'
import { emptySliceRefusal, sliceSuite, sliceTags } from '../../../src/suite/slice.js'
import { EmptySliceError, InvalidOptionsError } from '../../../src/suite/errors.js'

const root = mkdtempSync(join(tmpdir(), 'digline-dataset-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

function write(path: string, text: string): string {
  mkdirSync(dirname(join(root, path)), { recursive: true })
  writeFileSync(join(root, path), text)
  return path
}

const read = (pattern: string, options: DatasetOptions = {}) => readDataset(pattern, { ...options, root })
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

async function refusal(pattern: string, options: DatasetOptions = {}): Promise<InvalidDatasetError> {
  const error = await read(pattern, options).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(InvalidDatasetError)
  expect((error as InvalidDatasetError).exitCode).toBe(64)
  return error as InvalidDatasetError
}

describe('formats', () => {
  test('JSONL: one case per line, blank lines skipped, the file recorded by sha256', async () => {
    const text = '{"id":"a","input":"France","expected":"Paris","tags":["eu"]}\n\n{"id":"b","input":"Peru","metadata":{"src":"x"}}\n'
    write('data/capitals.jsonl', text)
    const d = await read('data/capitals.jsonl')
    expect(d.cases).toEqual([
      { id: 'a', input: 'France', expected: 'Paris', tags: ['eu'] },
      { id: 'b', input: 'Peru', metadata: { src: 'x' } },
    ])
    expect(d.files).toEqual({ 'data/capitals.jsonl': sha256(text) })
  })

  test('JSON: an array of rows', async () => {
    write('data/c.json', JSON.stringify([{ id: 'x', input: { q: 1 }, expected: [1, 2] }]))
    expect((await read('data/c.json')).cases).toEqual([{ id: 'x', input: { q: 1 }, expected: [1, 2] }])
  })

  test('CSV with a header row: quoted commas and newlines, tags split on commas, other columns are metadata', async () => {
    const text = 'id,input,expected,tags,source\r\nr1,"Paris, France","a ""quoted""\nanswer","eu, city",wiki\r\nr2,plain,,,\r\n'
    write('data/t.csv', text)
    const d = await read('data/t.csv')
    expect(d.cases).toEqual([
      { id: 'r1', input: 'Paris, France', expected: 'a "quoted"\nanswer', tags: ['eu', 'city'], metadata: { source: 'wiki' } },
      { id: 'r2', input: 'plain', metadata: { source: '' } },
    ])
    expect(d.files['data/t.csv']).toBe(sha256(text))
  })

  test('a glob of Markdown files: one case per file, in code-point order of paths, ids from the paths', async () => {
    write('md/b.md', '# B')
    write('md/a b.md', '# AB')
    write('md/Z.md', '# Z')
    const d = await read('md/*.md')
    expect(d.cases.map((c) => c.id)).toEqual(['md.Z', 'md.a-b', 'md.b'])
    expect(d.cases[1]).toEqual({ id: 'md.a-b', input: '# AB', metadata: { path: 'md/a b.md' } })
    expect(Object.keys(d.files)).toEqual(['md/Z.md', 'md/a b.md', 'md/b.md'])
  })

  test('a glob of JSONL files: one case per row of each file, files in code-point order', async () => {
    write('parts/2.jsonl', '{"id":"two","input":2}\n')
    write('parts/1.jsonl', '{"id":"one","input":1}\n')
    expect((await read('parts/*.jsonl')).cases.map((c) => c.id)).toEqual(['one', 'two'])
  })

  test('map and id: the id from a column or a function; without one, a stable id from the row content', async () => {
    write('data/m.jsonl', '{"q":"a","want":"A","n":7}\n{"q":"b","want":"B","n":8}\n')
    const map = (row: Record<string, unknown>) => ({ input: row.q, expected: row.want })
    expect((await read('data/m.jsonl', { map, id: 'n' })).cases.map((c) => c.id)).toEqual(['7', '8'])
    expect((await read('data/m.jsonl', { map, id: (row) => `q-${String(row.q)}` })).cases.map((c) => c.id)).toEqual(['q-a', 'q-b'])
    const first = (await read('data/m.jsonl', { map })).cases.map((c) => c.id)
    expect(first[0]).toMatch(/^row-[0-9a-f]{12}$/)
    expect((await read('data/m.jsonl', { map })).cases.map((c) => c.id)).toEqual(first)
  })

  test('a dataset as cases: the suite carries its files; a dataset not awaited is refused', async () => {
    const d = await read('data/capitals.jsonl')
    const suite = resolveSuite({ name: 's', cases: d, target: () => 'x', scorers: [() => true] })
    expect(suite.cases.map((c) => c.id)).toEqual(['a', 'b'])
    expect(suite.datasets).toEqual(d.files)
    expect(() => resolveSuite({ name: 's', cases: read('data/capitals.jsonl') as never, target: () => 'x', scorers: [() => true] })).toThrow(
      /cases is a dataset that is still being read: write `cases: await dataset/,
    )
    expect(() => resolveSuite({ name: 's', cases: read('data/capitals.jsonl') as never, target: () => 'x', scorers: [() => true] })).toThrow(InvalidSuiteError)
  })
})

describe('bad rows are refused by file, place and field', () => {
  test.each([
    ['bad/notjson.jsonl', '{"id":"a","input":1}\n{oops\n', {}, /dataset bad\/notjson\.jsonl line 2 was refused: is not JSON/],
    ['bad/array.jsonl', '{"id":"a","input":1}\n[1]\n', {}, /bad\/array\.jsonl line 2 was refused: is an array, not an object/],
    ['bad/noinput.jsonl', '{"id":"a"}\n', {}, /bad\/noinput\.jsonl line 1, field input was refused: is missing/],
    ['bad/badid.jsonl', '{"id":"a b","input":1}\n', {}, /line 1, field id was refused: "a b" is not one safe path segment/],
    ['bad/nullid.jsonl', '{"id":null,"input":1}\n', {}, /line 1, field id was refused: is null/],
    ['bad/tags.jsonl', '{"id":"a","input":1,"tags":["has space"]}\n', {}, /line 1, field tags was refused: "has space" is not a tag/],
    ['bad/meta.jsonl', '{"id":"a","input":1,"metadata":[1]}\n', {}, /line 1, field metadata was refused: must be an object/],
    ['bad/nocol.jsonl', '{"input":1}\n', { id: 'ticket' }, /line 1, field ticket was refused: is missing; it holds the case id/],
    ['bad/short.csv', 'id,input\na,1\nb\n', {}, /bad\/short\.csv row 2 \(line 3\) was refused: is not a CSV row of the header's columns/],
    ['bad/noinput.csv', 'id,question\na,1\n', {}, /bad\/noinput\.csv row 1 \(line 2\), field input was refused: is missing \(without a map, a row's input is its `input` column/],
    ['bad/obj.json', '{"id":"a"}', {}, /dataset bad\/obj\.json was refused: is not a JSON array/],
    ['bad/item.json', '[{"id":"a","input":1},{"id":"b"}]', {}, /bad\/item\.json \[1\], field input was refused/],
    ['bad/empty.jsonl', '\n', {}, /dataset bad\/empty\.jsonl was refused: it holds no rows/],
  ] as const)('%s', async (path, text, options, message) => {
    write(path, text)
    const error = await refusal(path, options)
    expect(error.message).toMatch(message)
    expect(error.next).toMatch(/run `vitest run` again/)
  })

  test('a map that throws, or returns no input, names the row', async () => {
    write('bad/m.jsonl', '{"id":"a","q":1}\n')
    expect(
      (
        await refusal('bad/m.jsonl', {
          map: () => {
            throw new Error('no q')
          },
        })
      ).message,
    ).toMatch(/bad\/m\.jsonl line 1 was refused: the dataset's map threw: no q/)
    expect((await refusal('bad/m.jsonl', { map: () => ({ input: undefined }) })).message).toMatch(/line 1, field input was refused: the dataset's map returned no input/)
    expect((await refusal('bad/m.jsonl', { map: () => ({ input: new Map() }) })).message).toMatch(/line 1, field input was refused: input is a Map/)
  })

  test('a duplicate id names both places, across files', async () => {
    write('dup/1.jsonl', '{"id":"x","input":1}\n')
    write('dup/2.csv', 'id,input\ny,2\nx,3\n')
    const error = await refusal('dup/*')
    expect(error.message).toMatch(/dataset dup\/2\.csv row 2 \(line 3\), field id was refused: the case id "x" is also the id of dup\/1\.jsonl line 1/)
  })

  test('a path that is not a file, and a glob that matches nothing', async () => {
    expect((await refusal('nope/cases.jsonl')).message).toMatch(/dataset nope\/cases\.jsonl was refused: is not a file under/)
    expect((await refusal('nope/*.csv')).message).toMatch(/dataset nope\/\*\.csv was refused: matches no file/)
  })
})

describe('slices by tag', () => {
  const cases = [
    { id: 'a', input: 1, tags: ['billing'] },
    { id: 'b', input: 2, tags: ['refunds', 'billing'] },
    { id: 'c', input: 3 },
  ]
  const suite = resolveSuite({ name: 's', cases, target: () => 1, scorers: [() => true] })

  test('DIGLINE_TAGS names the tags; the slice keeps the cases that carry any of them', () => {
    expect(sliceTags({})).toBeUndefined()
    expect(sliceTags({ DIGLINE_TAGS: 'refunds, billing,refunds' })).toEqual(['refunds', 'billing'])
    expect(() => sliceTags({ DIGLINE_TAGS: 'ok,has space' })).toThrow(InvalidOptionsError)
    const slice = sliceSuite(suite, ['refunds'])
    expect(slice.cases.map((c) => c.id)).toEqual(['b'])
    expect(slice.slice).toEqual({ tags: ['refunds'], suite_cases: 3 })
    expect(sliceSuite(suite, ['nobody']).cases).toEqual([])
    expect(sliceSuite(suite, undefined)).toBe(suite)
  })

  test('a launch by tag that ran no suite is refused; one without tags is not', () => {
    expect(emptySliceRefusal({})).toBeUndefined()
    const refusal = emptySliceRefusal({ DIGLINE_TAGS: 'a,b' })
    expect(refusal).toBeInstanceOf(EmptySliceError)
    expect(refusal!.exitCode).toBe(64)
    expect(refusal!.message).toMatch(/carries the tags a, b, so nothing was run or filed/)
  })

  test('a bad tag in an inline case is refused by path', () => {
    expect(() => resolveSuite({ name: 's', cases: [{ id: 'a', input: 1, tags: ['a,b'] }], target: () => 1, scorers: [() => true] })).toThrow(/cases\.0\.tags\.0/)
  })
})
