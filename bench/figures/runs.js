// Helpers for figures that run `vitest run` in a project: one launch, and what it left in the store.
import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { runNode } from '../lib/process.js'

/** One `vitest run --config <side>` in dir; a digline side starts from an empty store. */
export async function launch(install, dir, side, env, { scanEveryTick = false } = {}) {
  if (side === 'digline') rmSync(join(dir, '.digline'), { recursive: true, force: true })
  const result = await runNode([install.vitestBin, 'run', '--config', `vitest.${side}.config.ts`], { cwd: dir, env, scanEveryTick })
  if (result.code !== 0) {
    throw new Error(`vitest run (${side}) in ${dir} exited ${result.code ?? result.signal}:\n${result.stderr.slice(-3000)}\n${result.stdout.slice(-3000)}`)
  }
  return result
}

/** The sides in the order of repetition r: which goes first rotates, so a drift in the machine's load hits every side alike. */
export function rotated(sides, r) {
  return sides.map((_, i) => sides[(i + r) % sides.length])
}

/** The one run document a digline launch wrote for suite, summarized; journal legs left over. */
export function runSummary(dir, suite, tenant = 'bench', store = join(dir, '.digline')) {
  const runs = join(store, tenant, 'runs', suite)
  const files = readdirSync(runs).filter((f) => f.endsWith('.json') && !f.startsWith('.'))
  if (files.length !== 1) throw new Error(`expected one run document in ${runs}, found ${files.length}`)
  const doc = JSON.parse(readFileSync(join(runs, files[0]), 'utf8'))
  let legs = 0
  try {
    legs = readdirSync(join(runs, '.pending')).filter((f) => f.endsWith('.jsonl')).length
  } catch {}
  return { results: doc.results.length, aggregates: doc.aggregates, legsLeft: legs }
}
