// The user projects the benchmark runs with `vitest run`: each has a digline config and a plain
// Vitest config side by side, so both sides load the same files the same way. Sizes come from
// environment variables, so one project serves every size.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

function project(installRoot, name, files) {
  mkdirSync(join(installRoot, 'projects'), { recursive: true })
  const dir = mkdtempSync(join(installRoot, 'projects', `${name}-`))
  const all = { 'package.json': JSON.stringify({ name: `bench-${name}`, private: true, type: 'module' }), ...files }
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  return dir
}

const diglineConfig = (extra = '') => `import { defineConfig } from 'vitest/config'
import { digline } from 'digline/plugin'

export default defineConfig({
  plugins: [digline({ tenant: 'bench'${extra} })],
  test: { include: ['evals/**/*.eval.ts'] },
})
`

const plainConfig = (extra = '') => `import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: { include: ['plain/**/*.test.ts']${extra} },
})
`

/**
 * Figure 1: N cases with an instant target, 1 sample; the same N checks as plain tests. BENCH_CONCURRENCY
 * (default 1) sets the suite's concurrency; above 1 the plain side runs its tests as test.concurrent,
 * up to 32 at once.
 */
export function overheadProject(installRoot) {
  return project(installRoot, 'overhead', {
    'vitest.digline.config.ts': diglineConfig(),
    'vitest.plain.config.ts': plainConfig(', maxConcurrency: 32'),
    // The same digline run with its store on tmpfs, where an fsync costs nothing: what is left of
    // the overhead there is digline's CPU, not the disk.
    'vitest.tmpfs.config.ts': diglineConfig(', store: process.env.BENCH_TMPFS_STORE'),
    'evals/overhead.eval.ts': `import { evalSuite, scorers } from 'digline'

const N = Number(process.env.BENCH_N)
const CALL_MS = Number(process.env.BENCH_CALL_MS ?? 0)
const cases = Array.from({ length: N }, (_, i) => ({ id: 'c' + String(i).padStart(5, '0'), input: i, expected: 'ok-' + i }))

evalSuite({
  name: 'overhead',
  cases,
  target: async (i: number) => (CALL_MS > 0 ? new Promise<string>((r) => setTimeout(() => r('ok-' + i), CALL_MS)) : 'ok-' + i),
  samples: 1,
  scorers: [scorers.exact()],
  concurrency: Number(process.env.BENCH_CONCURRENCY ?? 1),
})
`,
    // Figure 1's floor at concurrency 32: the plain tests, each making its case durable (durableLines).
    'vitest.floor.config.ts': floorConfig,
    'floor/overhead.test.ts': `import { expect, test } from 'vitest'
${durableLines}
const N = Number(process.env.BENCH_N)
const declare = Number(process.env.BENCH_CONCURRENCY ?? 1) > 1 ? test.concurrent : test
const target = async (i: number) => 'ok-' + i

for (let i = 0; i < N; i++) {
  const id = 'c' + String(i).padStart(5, '0')
  declare(id, async () => {
    expect(await target(i)).toBe('ok-' + i)
    await durable(id)
  })
}
`,
    'plain/overhead.test.ts': `import { expect, test } from 'vitest'

const N = Number(process.env.BENCH_N)
const CALL_MS = Number(process.env.BENCH_CALL_MS ?? 0)
const target = async (i: number) => (CALL_MS > 0 ? new Promise<string>((r) => setTimeout(() => r('ok-' + i), CALL_MS)) : 'ok-' + i)
const declare = Number(process.env.BENCH_CONCURRENCY ?? 1) > 1 ? test.concurrent : test

for (let i = 0; i < N; i++) {
  declare('c' + String(i).padStart(5, '0'), async () => {
    expect(await target(i)).toBe('ok-' + i)
  })
}
`,
  })
}

const chatClient = `const BASE = process.env.BENCH_BASE_URL!

export async function chat(content: string, signal?: AbortSignal): Promise<{ content: string; model: string }> {
  const res = await fetch(BASE + '/v1/chat/completions', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer bench' },
    body: JSON.stringify({ model: 'bench-echo', messages: [{ role: 'user', content }], temperature: 0 }),
    signal,
  })
  if (!res.ok) throw new Error('HTTP ' + res.status + ': ' + (await res.text()))
  const body = (await res.json()) as { model: string; choices: { message: { content: string } }[] }
  return { content: body.choices[0]!.message.content, model: body.model }
}

const N = Number(process.env.BENCH_N)
export const CASES = Array.from({ length: N }, (_, i) => ({ id: 'q' + String(i).padStart(5, '0'), input: 'question ' + i, expected: 'echo: question ' + i }))
`

const floorConfig = `import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: { include: ['floor/**/*.test.ts'], maxConcurrency: 32 },
})
`

/**
 * The floor's durability (figures 1 and 2): a test makes its case durable the least way SPEC §6
 * allows, before it ends and its slot takes the next case: one line (a CRC-32 and the case record's
 * JSON), written with one write and fsynced. Lines that arrive while an fsync runs share the next
 * one. A batch is sent at once: held to the end of its turn as digline's journal holds it (ADR
 * 0557), these tests took 2–5% more wall time (docs/performance.md).
 */
const durableLines = `import { mkdirSync, rmSync, writeSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { crc32 } from 'node:zlib'

const dir = '.floor'
rmSync(dir, { recursive: true, force: true })
mkdirSync(dir)
const leg = await open(dir + '/leg.jsonl', 'a')
let gathering: string[] | undefined
let tail: Promise<void> = Promise.resolve()

function durable(id: string): Promise<void> {
  const json = JSON.stringify({ kind: 'case', run: 'floor', cause: null, case: { case_id: id, verdict: 'pass', score: 1, passed_samples: 1, reason: null, error: null, samples: [{ pass: true, score: 1, scorers: [{ name: 'exact', pass: true, score: 1, reason: null }] }] } })
  const line = crc32(json).toString(16).padStart(8, '0') + ' ' + json + '\\n'
  if (gathering !== undefined) {
    gathering.push(line)
    return tail
  }
  const batch = [line]
  gathering = batch
  tail = tail.then(() => {
    if (gathering === batch) gathering = undefined
    writeSync(leg.fd, batch.join(''))
    return leg.sync()
  })
  return tail
}
`

/** Figure 2's floor: the plain chat tests, each making its case durable. */
const chatFloorTest = `import { expect, test } from 'vitest'
import { CASES, chat } from '../chat.js'
${durableLines}
for (const c of CASES) {
  test.concurrent(c.id, async ({ signal }) => {
    const reply = await chat(c.input, signal)
    expect(reply.content).toBe(c.expected)
    await durable(c.id)
  })
}
`

/** Figure 2: one chat call per case against the loopback server, concurrency 32, exact match. */
export function concurrencyProject(installRoot) {
  return project(installRoot, 'concurrency', {
    'vitest.digline.config.ts': diglineConfig(`, hooks: ['./count-journaled.ts']`),
    'vitest.plain.config.ts': plainConfig(', maxConcurrency: 32'),
    'vitest.floor.config.ts': floorConfig,
    'chat.ts': chatClient,
    // Called once per case after its journal record is fsynced: the count proves every case was journaled.
    'count-journaled.ts': `import { onCase } from 'digline'
import { writeFileSync } from 'node:fs'

let journaled = 0
const out = process.env.BENCH_JOURNALED_FILE
const N = Number(process.env.BENCH_N)
onCase(() => {
  journaled++
  if (out && (journaled % 250 === 0 || journaled === N)) writeFileSync(out, String(journaled))
})
`,
    'evals/chat.eval.ts': `import { evalSuite, scorers } from 'digline'
import { CASES, chat } from '../chat.js'

evalSuite({
  name: 'chat',
  cases: CASES,
  target: {
    config: { model: 'bench-echo', temperature: 0 },
    async ask(input: string, ctx) {
      const reply = await chat(input, ctx.signal)
      return { output: reply.content, model: reply.model }
    },
  },
  samples: 1,
  scorers: [scorers.exact()],
  concurrency: 32,
})
`,
    'floor/chat.test.ts': chatFloorTest,
    'plain/chat.test.ts': `import { expect, test } from 'vitest'
import { CASES, chat } from '../chat.js'

for (const c of CASES) {
  // A well-behaved test hands its call the test's own signal, as the digline target hands ctx.signal.
  test.concurrent(c.id, async ({ signal }) => {
    const reply = await chat(c.input, signal)
    expect(reply.content).toBe(c.expected)
  })
}
`,
  })
}

/** Figure 5: CASES × SAMPLES calls with an instant target whose answers are ANSWER_BYTES long. */
export function memoryProject(installRoot) {
  return project(installRoot, 'memory', {
    'vitest.digline.config.ts': diglineConfig(),
    'evals/memory.eval.ts': `import { evalSuite } from 'digline'

const CASES = Number(process.env.BENCH_CASES)
const SAMPLES = Number(process.env.BENCH_SAMPLES)
const ANSWER_BYTES = Number(process.env.BENCH_ANSWER_BYTES)
const cases = Array.from({ length: CASES }, (_, i) => ({ id: 'm' + String(i).padStart(5, '0'), input: i }))

evalSuite({
  name: 'memory',
  cases,
  // A fresh answer of ANSWER_BYTES characters per call (never interned, never shared).
  target: async (i: number, ctx) => String(i % 10).repeat(ANSWER_BYTES - 1) + String(ctx.sample % 10),
  samples: SAMPLES,
  minAgreement: 0.5,
  scorers: [({ output }) => typeof output === 'string' && output.length === ANSWER_BYTES],
  recordResponses: false,
  concurrency: 4,
})
`,
    'vitest.plain.config.ts': plainConfig(),
    // The same calls as plain Vitest tests: what Vitest itself keeps per test, for reference.
    'plain/memory.test.ts': `import { expect, test } from 'vitest'

const CASES = Number(process.env.BENCH_CASES)
const SAMPLES = Number(process.env.BENCH_SAMPLES)
const ANSWER_BYTES = Number(process.env.BENCH_ANSWER_BYTES)
const target = async (i: number, sample: number) => String(i % 10).repeat(ANSWER_BYTES - 1) + String(sample % 10)

for (let i = 0; i < CASES; i++) {
  test('m' + String(i).padStart(5, '0'), async () => {
    let passed = 0
    for (let s = 0; s < SAMPLES; s++) if ((await target(i, s)).length === ANSWER_BYTES) passed++
    expect(passed).toBe(SAMPLES)
  })
}
`,
  })
}

/**
 * Figure 19: BENCH_N cases read from a JSONL file (written by the figure), one instant call each at
 * concurrency 32; the plain side reads the same file and declares one test.concurrent per row.
 */
export function scaleProject(installRoot) {
  return project(installRoot, 'scale', {
    'vitest.digline.config.ts': diglineConfig(),
    'vitest.plain.config.ts': plainConfig(', maxConcurrency: 32'),
    'evals/scale.eval.ts': `import { dataset, evalSuite } from 'digline'

evalSuite({
  name: 'scale',
  cases: await dataset('data/cases.jsonl'),
  target: async (input: number) => 'ok-' + input,
  samples: 1,
  scorers: [({ output, expected }) => output === expected],
  concurrency: 32,
})
`,
    'plain/scale.test.ts': `import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'

const rows = readFileSync('data/cases.jsonl', 'utf8').split('\\n').filter((line) => line !== '').map((line) => JSON.parse(line))
const target = async (input: number) => 'ok-' + input

for (const row of rows) {
  test.concurrent(row.id, async () => {
    expect(await target(row.input)).toBe(row.expected)
  })
}
`,
  })
}

// Figure 20's marks. In a test's worker: the process's start (performance.timeOrigin), the first call
// to the target and the last one, as wall-clock instants, written when the last call is made. In the
// main process (a reporter beside Vitest's own): when the run ends for the reporters, and the exit.
const callMarks = `import { writeFileSync } from 'node:fs'

const N = Number(process.env.BENCH_N)
let first = 0
let calls = 0

export function called(): void {
  const now = performance.timeOrigin + performance.now()
  if (calls++ === 0) first = now
  if (calls === N) writeFileSync(process.env.BENCH_PHASES_OUT!, JSON.stringify({ workerStart: performance.timeOrigin, first, last: now }))
}
`

const runMarks = `import { writeFileSync } from 'node:fs'

const now = () => performance.timeOrigin + performance.now()
let runEnd = 0
process.on('exit', () => writeFileSync(process.env.BENCH_PHASES_OUT + '.main', JSON.stringify({ runEnd, exit: now() })))

export class RunMarks {
  onTestRunEnd(): void {
    runEnd = now()
  }
}
`

const phasesConfig = (file, plugin) => `import { defineConfig } from 'vitest/config'
${plugin ? "import { digline } from 'digline/plugin'\n" : ''}import { RunMarks } from './run-marks.ts'

export default defineConfig({
  ${plugin ? "plugins: [digline({ tenant: 'bench' })],\n  " : ''}test: { include: ['phases/${file}'], maxConcurrency: 32, reporters: ['default', new RunMarks()] },
})
`

const phasesTarget = `const CALL_MS = Number(process.env.BENCH_CALL_MS ?? 0)
const target = async (i: number) => {
  called()
  return CALL_MS > 0 ? new Promise<string>((r) => setTimeout(() => r('ok-' + i), CALL_MS)) : 'ok-' + i
}
`

/**
 * Figure 20: figure 1's cases on its three sides (digline, plain Vitest, the floor), each marking
 * its first and last call to the target, the start of its worker, and the end of the run in the
 * main process, so a launch's wall time splits into phases (bench/figures/launch-phases.js).
 */
export function phasesProject(installRoot) {
  return project(installRoot, 'phases', {
    'call-marks.ts': callMarks,
    'run-marks.ts': runMarks,
    'vitest.digline.config.ts': phasesConfig('digline.eval.ts', true),
    'vitest.plain.config.ts': phasesConfig('plain.test.ts', false),
    'vitest.floor.config.ts': phasesConfig('floor.test.ts', false),
    'phases/digline.eval.ts': `import { evalSuite, scorers } from 'digline'
import { called } from '../call-marks.ts'

const N = Number(process.env.BENCH_N)
${phasesTarget}
evalSuite({
  name: 'phases',
  cases: Array.from({ length: N }, (_, i) => ({ id: 'c' + String(i).padStart(5, '0'), input: i, expected: 'ok-' + i })),
  target,
  samples: 1,
  scorers: [scorers.exact()],
  concurrency: Number(process.env.BENCH_CONCURRENCY ?? 1),
})
`,
    'phases/plain.test.ts': `import { expect, test } from 'vitest'
import { called } from '../call-marks.ts'

const N = Number(process.env.BENCH_N)
${phasesTarget}const declare = Number(process.env.BENCH_CONCURRENCY ?? 1) > 1 ? test.concurrent : test

for (let i = 0; i < N; i++) {
  declare('c' + String(i).padStart(5, '0'), async () => {
    expect(await target(i)).toBe('ok-' + i)
  })
}
`,
    'phases/floor.test.ts': `import { expect, test } from 'vitest'
import { called } from '../call-marks.ts'
${durableLines}
const N = Number(process.env.BENCH_N)
${phasesTarget}const declare = Number(process.env.BENCH_CONCURRENCY ?? 1) > 1 ? test.concurrent : test

for (let i = 0; i < N; i++) {
  const id = 'c' + String(i).padStart(5, '0')
  declare(id, async () => {
    expect(await target(i)).toBe('ok-' + i)
    await durable(id)
  })
}
`,
  })
}
