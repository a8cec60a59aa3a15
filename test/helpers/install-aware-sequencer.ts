// The order test files start in (ADR 0170). The packed digline installs while the first files run
// (global-setup.ts), so the files that never reach test/helpers/project.ts go first; within each
// group the longest goes first, so no long file starts last and runs alone. A file's length is its
// last duration when Vitest remembers every file's; else (a fresh clone, as CI has, remembers none)
// the duration test/file-weights.json recorded for it, and for a file no run has timed an estimate
// from the processes it starts (ADR 0390): a file's size alone put the e2e files that start many
// processes from short texts last.
import { existsSync, readFileSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

const PROJECT_HELPER = resolve(import.meta.dirname, 'project.ts')
const WEIGHTS = resolve(import.meta.dirname, '..', 'file-weights.json')
const IMPORT = /(?:^|\n)\s*import\s+(?!type\b)[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g

/** Whether a module reaches the project helper through imports that are not type-only. */
function reachesProjectHelper(file: string, seen = new Set<string>()): boolean {
  if (file === PROJECT_HELPER) return true
  if (seen.has(file)) return false
  seen.add(file)
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    return false
  }
  for (const match of text.matchAll(IMPORT)) {
    const target = resolve(dirname(file), (match[1] ?? match[2]!).replace(/\.js$/, '.ts'))
    if (!target.includes('/test/')) continue
    if (reachesProjectHelper(target, seen)) return true
  }
  return false
}

/** A process a test starts: a spawned `vitest run` or digline command, a kill test's run, a Chromium. */
const PROCESS_START = /\.(?:vitest|digline|spawnVitest|spawnDigline)\(|killAfterCalls\(|launchChromium\(|\bspawn\(|\bexecFile(?:Sync)?\(/g

/**
 * A file's duration guessed from its text, for a file no run has timed: a second per kilobyte of
 * test code plus 3 s per place that starts a process (on a quiet 2-core machine a spawned Vitest
 * costs 1.3–3 s of CPU, and most files of the suite wait on such processes; ADR 0390).
 */
function estimatedSeconds(file: string): number {
  const text = readFileSync(file, 'utf8')
  return text.length / 1000 + 3 * (text.match(PROCESS_START)?.length ?? 0)
}

/** Vitest 5's cache, by test specification; Vitest 4.1 has only the lookup by key that 5 deprecates. */
interface SpecificationCache {
  getTestSpecificationResult?: (spec: TestSpecification) => { duration?: number } | undefined
  getFileTestResults: (key: string) => { duration?: number } | undefined
}

export default class InstallAwareSequencer extends BaseSequencer {
  /** How long the file took when it last ran, if Vitest remembers: asked in each version's own, undeprecated words. */
  private lastDuration(spec: TestSpecification): number | undefined {
    const cache = this.ctx.cache as unknown as SpecificationCache
    if (cache.getTestSpecificationResult !== undefined) return cache.getTestSpecificationResult(spec)?.duration
    return cache.getFileTestResults(`${spec.project.name}:${relative(this.ctx.config.root, spec.moduleId)}`)?.duration
  }

  /** Seconds each file is expected to take: remembered by Vitest, else recorded in test/file-weights.json, else estimated from its text. */
  private weights(files: TestSpecification[]): number[] {
    const durations = files.map((spec) => this.lastDuration(spec))
    if (durations.every((d) => d !== undefined)) return durations.map((ms) => ms! / 1000)
    const recorded = existsSync(WEIGHTS) ? (JSON.parse(readFileSync(WEIGHTS, 'utf8')) as { seconds: Record<string, number> }).seconds : {}
    return files.map((spec) => recorded[relative(this.ctx.config.root, spec.moduleId)] ?? estimatedSeconds(spec.moduleId))
  }

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const weights = this.weights(files)
    const facts = new Map(files.map((spec, i) => [spec, { needsInstall: reachesProjectHelper(spec.moduleId), weight: weights[i]! }]))
    return [...files].sort((a, b) => {
      const groupOrder = a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder
      if (groupOrder !== 0) return groupOrder
      const fa = facts.get(a)!
      const fb = facts.get(b)!
      if (fa.needsInstall !== fb.needsInstall) return fa.needsInstall ? 1 : -1
      return fb.weight - fa.weight
    })
  }
}
