// The order test files start in (ADR 0170). The packed digline installs while the first files run
// (global-setup.ts), so the files that never reach test/helpers/project.ts go first; within each
// group the longest goes first, by its last duration when Vitest remembers every file's, else by
// its size (a fresh clone, as CI has, remembers none), so no long file starts last and runs alone.
import { readFileSync, statSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

const PROJECT_HELPER = resolve(import.meta.dirname, 'project.ts')
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

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const durations = files.map((spec) => this.lastDuration(spec))
    const remembered = durations.every((d) => d !== undefined)
    const facts = new Map(files.map((spec, i) => [spec, { needsInstall: reachesProjectHelper(spec.moduleId), weight: remembered ? durations[i]! : statSync(spec.moduleId).size }]))
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
