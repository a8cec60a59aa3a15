// Baselines and the register in FileResultStore: the layout on disk, what a baseline leaves out, and
// the refusals of a baseline or register that cannot be read.
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { baselineOf, serializeBaseline, type RegisterEntry } from '../../src/document/baseline.js'
import { parseHeaderPrefix, serializeRun } from '../../src/document/serialize.js'
import { nodeFsLayer, type FsLayer } from '../../src/store/file/fs-layer.js'
import { promoteRun } from '../../src/host/lifecycle/promote.js'
import { FileResultStore } from '../../src/store/file/store.js'
import { keyOf, makeRun } from '../helpers/make-run.js'
import { makeTempStore, type TempStore } from './temp-store.js'

const PROMOTED_AT = '2026-12-01T09:00:00.000001Z'

function withResponses() {
  const doc = makeRun({ results: 4 })
  doc.record_responses = true
  doc.results = doc.results.map((r) => ({ ...r, input: { q: r.case_id }, expected: 'secret-expected', samples: r.samples.map((s) => ({ ...s, output: 'secret-answer' })) }))
  return doc
}

const entry = (key: string, replaced: string | null = null): RegisterEntry => ({
  promoted_at: PROMOTED_AT,
  suite: 'capitals',
  key,
  replaced,
  config_hash: '3f9a0c1b2d4e',
  cases: 3,
  passed: 3,
  failed: 0,
  pass_rate: 1,
})

describe('baselines in the file store', () => {
  let temp: TempStore
  beforeEach(() => {
    temp = makeTempStore()
  })
  afterEach(() => temp.cleanup())

  it('has none until one is written', async () => {
    expect(await temp.store.readBaseline('acme', 'capitals')).toBeUndefined()
    expect(await temp.store.readRegister('acme')).toEqual([])
  })

  it('writes <tenant>/baselines/<suite>.json without answers, inputs or expected values, and reads it back', async () => {
    const run = withResponses()
    const baseline = baselineOf(run, keyOf(run), PROMOTED_AT)
    const stored = await temp.store.writeBaseline(baseline)
    const file = join(temp.root, 'acme', 'baselines', 'capitals.json')
    expect(stored).toEqual({ tenant: 'acme', suite: 'capitals', key: keyOf(run), location: file })
    const text = readFileSync(file, 'utf8')
    expect(text).toBe(serializeBaseline(baseline))
    expect(text).not.toContain('secret')
    const read = await temp.store.readBaseline('acme', 'capitals')
    expect(read?.promoted_from).toBe(keyOf(run))
    expect(read?.promoted_at).toBe(PROMOTED_AT)
    expect(read?.record_responses).toBe(true)
    expect(read?.results.map((r) => r.verdict)).toEqual(run.results.map((r) => r.verdict))
    expect(read?.results.every((r) => r.input === undefined && r.expected === undefined && r.samples.every((s) => s.output === undefined))).toBe(true)
  })

  it('keeps the run layout: the run header lines, the promotion fields, then aggregates and one case per line', () => {
    const run = makeRun({ results: 3 })
    const text = serializeBaseline(baselineOf(run, keyOf(run), PROMOTED_AT))
    const runLines = serializeRun(run).split('\n')
    const lines = text.split('\n')
    const aggregatesAt = runLines.findIndex((l) => l.startsWith('  "aggregates": '))
    expect(lines.slice(0, aggregatesAt)).toEqual(runLines.slice(0, aggregatesAt))
    expect(lines[aggregatesAt]).toBe(`  "promoted_at": "${PROMOTED_AT}",`)
    expect(lines[aggregatesAt + 1]).toBe(`  "promoted_from": "${keyOf(run)}",`)
    expect(lines.slice(aggregatesAt + 2)).toEqual(runLines.slice(aggregatesAt))
    expect(parseHeaderPrefix(text)).toMatchObject({ suite: 'capitals', promoted_from: keyOf(run) })
    expect(JSON.parse(text)).toMatchObject({ promoted_at: PROMOTED_AT })
  })

  it.each([
    ['not JSON', '{ "schema_version": 1,', 'UnreadableBaselineError'],
    ['not the schema', '{ "schema_version": 1 }', 'UnreadableBaselineError'],
    ['an unknown schema version', '{ "schema_version": 99 }', 'UnknownSchemaVersionError'],
  ])('refuses a baseline that is %s, by name', async (_label, bytes, name) => {
    mkdirSync(join(temp.root, 'acme', 'baselines'), { recursive: true })
    writeFileSync(join(temp.root, 'acme', 'baselines', 'capitals.json'), bytes)
    await expect(temp.store.readBaseline('acme', 'capitals')).rejects.toMatchObject({ name })
  })

  it('refuses a baseline of another tenant or suite, and one whose promoted_from is not its own key', async () => {
    const run = makeRun()
    const baseline = baselineOf(run, keyOf(run), PROMOTED_AT)
    mkdirSync(join(temp.root, 'other', 'baselines'), { recursive: true })
    writeFileSync(join(temp.root, 'other', 'baselines', 'capitals.json'), serializeBaseline(baseline))
    await expect(temp.store.readBaseline('other', 'capitals')).rejects.toMatchObject({ name: 'TenantMismatchError' })
    mkdirSync(join(temp.root, 'acme', 'baselines'), { recursive: true })
    writeFileSync(join(temp.root, 'acme', 'baselines', 'towns.json'), serializeBaseline(baseline))
    await expect(temp.store.readBaseline('acme', 'towns')).rejects.toMatchObject({ name: 'SuiteMismatchError' })
    writeFileSync(join(temp.root, 'acme', 'baselines', 'capitals.json'), serializeBaseline({ ...baseline, promoted_from: '20260101T000000000000Z-3f9a0c1b2d4e' }))
    await expect(temp.store.readBaseline('acme', 'capitals')).rejects.toMatchObject({ name: 'UnreadableBaselineError', path: ['promoted_from'] })
  })

  it('refuses a baseline reached through a symlink and never writes through one', async () => {
    const run = makeRun()
    mkdirSync(join(temp.root, 'acme', 'baselines'), { recursive: true })
    symlinkSync(temp.sentinel, join(temp.root, 'acme', 'baselines', 'capitals.json'))
    await expect(temp.store.readBaseline('acme', 'capitals')).rejects.toMatchObject({ name: 'PathRefusedError' })
    await expect(temp.store.writeBaseline(baselineOf(run, keyOf(run), PROMOTED_AT))).rejects.toMatchObject({ name: 'PathRefusedError' })
    expect(readFileSync(temp.sentinel, 'utf8')).toContain('outside the store')
  })

  it('appends register lines, one JSON object a line, and reads them back in order', async () => {
    await temp.store.appendRegister('acme', entry('20261129T223956123456Z-3f9a0c1b2d4e'))
    await temp.store.appendRegister('acme', entry('20261130T223956123456Z-3f9a0c1b2d4e', '20261129T223956123456Z-3f9a0c1b2d4e'))
    const text = readFileSync(join(temp.root, 'acme', 'register.jsonl'), 'utf8')
    expect(text.split('\n')).toHaveLength(3)
    expect(text.endsWith('\n')).toBe(true)
    expect((await temp.store.readRegister('acme')).map((e) => e.replaced)).toEqual([null, '20261129T223956123456Z-3f9a0c1b2d4e'])
  })

  it('refuses a register with a line that is not an entry, naming the line', async () => {
    const file = join(temp.root, 'acme', 'register.jsonl')
    mkdirSync(join(temp.root, 'acme'), { recursive: true })
    writeFileSync(file, `${JSON.stringify(entry('20261129T223956123456Z-3f9a0c1b2d4e'))}\n<<<<<<< HEAD\n`)
    const before = readFileSync(file)
    await expect(temp.store.readRegister('acme')).rejects.toMatchObject({ name: 'UnreadableRegisterError', message: expect.stringContaining('line 2') })
    // A bad line that is terminated is not torn: it is never cut, even when it is the last one.
    writeFileSync(file, `${JSON.stringify(entry('20261129T223956123456Z-3f9a0c1b2d4e'))}\n{"promoted_at":\n`)
    const terminated = readFileSync(file)
    await expect(temp.store.readRegister('acme')).rejects.toMatchObject({ name: 'UnreadableRegisterError', message: expect.stringContaining('line 2') })
    expect(readFileSync(file).equals(terminated)).toBe(true)
    expect(before.length).toBeGreaterThan(0)
  })
})

describe('a register line torn by a crash (an unterminated last fragment)', () => {
  let temp: TempStore
  afterEach(() => temp.cleanup())
  const whole = `${JSON.stringify(entry('20261129T223956123456Z-3f9a0c1b2d4e'))}\n`
  const torn = JSON.stringify(entry('20261130T223956123456Z-3f9a0c1b2d4e')).slice(0, 57)

  it('is cut off by the next read, which says so, and the lines before it stay', async () => {
    const said: string[] = []
    const dir = makeTempStore()
    temp = dir
    const store = new FileResultStore({ root: dir.root, say: (line) => said.push(line) })
    const file = join(dir.root, 'acme', 'register.jsonl')
    mkdirSync(join(dir.root, 'acme'), { recursive: true })
    writeFileSync(file, whole + torn)
    expect((await store.readRegister('acme')).map((e) => e.key)).toEqual(['20261129T223956123456Z-3f9a0c1b2d4e'])
    expect(readFileSync(file, 'utf8')).toBe(whole)
    expect(said).toEqual([expect.stringMatching(/register .*register\.jsonl ended in a torn line \(57 bytes .*\); it was cut off/)])
    expect(readdirSync(join(dir.root, 'acme'))).toEqual(['register.jsonl'])
  })

  it('is cut at its last newline byte even when the fragment is not UTF-8', async () => {
    const said: string[] = []
    temp = makeTempStore()
    const store = new FileResultStore({ root: temp.root, say: (line) => said.push(line) })
    const file = join(temp.root, 'acme', 'register.jsonl')
    mkdirSync(join(temp.root, 'acme'), { recursive: true })
    const fragment = Buffer.concat([Buffer.from('{"key":"'), Buffer.from([0xc5, 0xd1, 0xff]), Buffer.from('x')])
    writeFileSync(file, Buffer.concat([Buffer.from(whole), fragment]))
    expect((await store.readRegister('acme')).map((e) => e.key)).toEqual(['20261129T223956123456Z-3f9a0c1b2d4e'])
    expect(readFileSync(file, 'utf8')).toBe(whole)
    expect(said).toEqual([expect.stringContaining(`(${fragment.length} bytes`)])
  })

  it('is cut off by the next promotion, which then lands after the whole lines', async () => {
    const said: string[] = []
    temp = makeTempStore()
    const store = new FileResultStore({ root: temp.root, say: (line) => said.push(line) })
    const run = makeRun()
    await store.writeRun(run)
    mkdirSync(join(temp.root, 'acme'), { recursive: true })
    const file = join(temp.root, 'acme', 'register.jsonl')
    writeFileSync(file, torn)
    const promotion = await promoteRun({ store, tenant: 'acme', suite: 'capitals', key: keyOf(run), replacing: undefined, currentConfigHash: async () => run.config_hash })
    expect(promotion.outcome).toBe('promoted')
    expect((await store.readRegister('acme')).map((e) => e.key)).toEqual([keyOf(run)])
    expect(said).toHaveLength(1)
  })
})

describe('a promotion whose register append fails', () => {
  let temp: TempStore
  afterEach(() => temp.cleanup())

  it('puts the previous baseline back byte for byte and leaves the register as it was', async () => {
    let failAppends = false
    const fs: FsLayer = {
      ...nodeFsLayer,
      async write(handle, data, offset, length) {
        if (failAppends && Buffer.from(data).toString('utf8').includes('"replaced"')) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' })
        return nodeFsLayer.write(handle, data, offset, length)
      },
    }
    temp = makeTempStore({ fs })
    const store: FileResultStore = temp.store
    const first = makeRun({ createdAt: '2026-11-29T10:00:00.000001Z' })
    const second = makeRun({ createdAt: '2026-11-29T11:00:00.000001Z' })
    await store.writeRun(first)
    await store.writeRun(second)
    const request = { store, tenant: 'acme', suite: 'capitals', currentConfigHash: async () => first.config_hash }
    await promoteRun({ ...request, key: keyOf(first), replacing: undefined })
    const baselineFile = join(temp.root, 'acme', 'baselines', 'capitals.json')
    const registerFile = join(temp.root, 'acme', 'register.jsonl')
    const baselineBefore = readFileSync(baselineFile)
    const registerBefore = readFileSync(registerFile)
    failAppends = true
    await expect(promoteRun({ ...request, key: keyOf(second), replacing: keyOf(first) })).rejects.toMatchObject({ name: 'StoreWriteError', errno: 'ENOSPC' })
    expect(readFileSync(baselineFile).equals(baselineBefore)).toBe(true)
    expect(readFileSync(registerFile).equals(registerBefore)).toBe(true)
  })

  it('removes a first baseline when its register line could not be written', async () => {
    const fs: FsLayer = {
      ...nodeFsLayer,
      async write(handle, data, offset, length) {
        if (Buffer.from(data).toString('utf8').includes('"replaced"')) throw Object.assign(new Error('input/output error'), { code: 'EIO' })
        return nodeFsLayer.write(handle, data, offset, length)
      },
    }
    temp = makeTempStore({ fs })
    const run = makeRun()
    await temp.store.writeRun(run)
    await expect(
      promoteRun({ store: temp.store, tenant: 'acme', suite: 'capitals', key: keyOf(run), replacing: undefined, currentConfigHash: async () => run.config_hash }),
    ).rejects.toMatchObject({ name: 'StoreWriteError' })
    expect(existsSync(join(temp.root, 'acme', 'baselines', 'capitals.json'))).toBe(false)
    expect(existsSync(join(temp.root, 'acme', 'register.jsonl'))).toBe(false)
  })
})
