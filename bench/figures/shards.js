// Figure 11: sharded runs. (a) Wall time of one run of CASES cases whose target takes 100 ms, at
// concurrency 16, as 1, 2 and 4 shards started at once as separate `vitest run` processes against
// one store, against the ideal (1/N of the unsharded wall time), launched in turn in this one run.
// (b) The merge of a 100,000-case run from 4 shard stores (digline merge's checks, then building
// and filing the document), in a child process of its own.
import { mkdtempSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { runJsonChild, runNode } from '../lib/process.js'
import { mkdirSync, writeFileSync } from 'node:fs'
import { fmt, median } from '../lib/stats.js'

const LATENCY_MS = 100
const CONCURRENCY = 16

function shardProject(installRoot) {
  mkdirSync(join(installRoot, 'projects'), { recursive: true })
  const dir = mkdtempSync(join(installRoot, 'projects', 'shards-'))
  const files = {
    'package.json': JSON.stringify({ name: 'bench-shards', private: true, type: 'module' }),
    'vitest.config.ts': `import { defineConfig } from 'vitest/config'
import { digline } from 'digline/plugin'

export default defineConfig({
  plugins: [digline({ tenant: 'bench' })],
  test: { include: ['evals/**/*.eval.ts'] },
})
`,
    'evals/shards.eval.ts': `import { evalSuite, scorers } from 'digline'

const N = Number(process.env.BENCH_N)
evalSuite({
  name: 'shards',
  cases: Array.from({ length: N }, (_, i) => ({ id: 'c' + String(i).padStart(5, '0'), input: i, expected: 'ok-' + i })),
  target: async (i: number) => {
    await new Promise((r) => setTimeout(r, ${LATENCY_MS}))
    return 'ok-' + i
  },
  scorers: [scorers.exact()],
  concurrency: ${CONCURRENCY},
  timeout: 600_000,
})
`,
  }
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  return dir
}

/** N processes at once, one per shard, each in its own working directory, all against `store`. */
async function shardedLaunch(install, dirs, shards, cases, store, createdAt) {
  const start = process.hrtime.bigint()
  const results = await Promise.all(
    Array.from({ length: shards }, (_, i) =>
      runNode([install.vitestBin, 'run'], {
        cwd: dirs[i],
        env: { BENCH_N: String(cases), DIGLINE_STORE: store, DIGLINE_CREATED_AT: createdAt, ...(shards === 1 ? {} : { DIGLINE_SHARD: `${i + 1}/${shards}` }) },
      }),
    ),
  )
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6
  for (const r of results) if (r.code !== 0) throw new Error(`a shard of ${shards} exited ${r.code ?? r.signal}:\n${r.stderr.slice(-2000)}\n${r.stdout.slice(-2000)}`)
  const runs = readdirSync(join(store, 'bench', 'runs', 'shards')).filter((f) => f.endsWith('.json'))
  if (runs.length !== 1) throw new Error(`${shards} shard(s) filed ${runs.length} run documents`)
  return wallMs
}

const stamp = (rep, shards) => `2026-11-29T22:${String(10 + rep).padStart(2, '0')}:${String(10 + shards).padStart(2, '0')}.000000Z`

export async function shards({ install, quick, tmp, log }) {
  const cases = 2000
  const reps = quick ? 1 : 3
  const dirs = Array.from({ length: 4 }, () => shardProject(install.root))
  log('shards: warming up')
  await shardedLaunch(install, dirs, 1, 32, mkdtempSync(join(tmp, 'shards-store-')), stamp(40, 0))
  const wall = { 1: [], 2: [], 4: [] }
  for (let r = 0; r < reps; r++) {
    for (const n of r % 2 === 0 ? [1, 2, 4] : [4, 2, 1]) {
      const ms = await shardedLaunch(install, dirs, n, cases, mkdtempSync(join(tmp, 'shards-store-')), stamp(r, n))
      wall[n].push(ms)
      log(`  rep ${r + 1}: ${n} shard(s): ${fmt.s(ms)}`)
    }
  }
  const whole = median(wall[1])
  const ratio = (n) => median(wall[n]) / (whole / n)
  const mergeCases = 100_000
  log(`shards: merging a ${fmt.int(mergeCases)}-case run from 4 shard stores`)
  const merge = await runJsonChild(
    join(import.meta.dirname, 'shards-merge-child.js'),
    { pkg: install.pkg, dir: tmp, cases: mergeCases, reps: quick ? 3 : 5 },
    { nodeArgs: ['--expose-gc', '--max-old-space-size=8192'] },
  )
  const mergeMs = median(merge.mergeMs)
  return {
    rows: [
      {
        figure: `11. ${fmt.int(cases)} cases × ${LATENCY_MS} ms at concurrency ${CONCURRENCY}, unsharded: wall time (ideal for 1 shard: ${fmt.s((cases / CONCURRENCY) * LATENCY_MS)} plus start-up)`,
        value: fmt.s(whole),
        goal: '—',
        pass: null,
      },
      {
        figure: '11. the same as 2 shards at once (one store): wall ÷ (unsharded ÷ 2)',
        value: `${fmt.x3(ratio(2))} (${fmt.s(median(wall[2]))})`,
        goal: '—',
        pass: null,
      },
      {
        figure: '11. the same as 4 shards at once (one store): wall ÷ (unsharded ÷ 4)',
        value: `${fmt.x3(ratio(4))} (${fmt.s(median(wall[4]))})`,
        goal: '≤ 1.15×',
        pass: ratio(4) <= 1.15,
      },
      {
        figure: `11. digline merge of a ${fmt.int(mergeCases)}-case run from 4 shard stores (checks, read, build, file)`,
        value: fmt.ms(mergeMs),
        goal: '< 2 s',
        pass: mergeMs < 2000,
      },
    ],
    raw: { wall, cases, mergeMs: merge.mergeMs },
  }
}
