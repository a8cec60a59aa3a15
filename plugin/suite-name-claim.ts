// One suite name, one file, per launch: every evalSuite() claims its (tenant, suite) in a directory
// the plugin's main process made for this launch, by a hard link that fails if the name is taken
// (atomic across Vitest workers). The claim holds the claiming file's path, so the refusal names both.
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { DuplicateSuiteNameError } from './errors.js'

export interface SuiteClaim {
  /** Whether another file tried to declare the same suite after this one claimed it. */
  contested(): string | undefined
}

export function claimSuiteName(dir: string, tenant: string, suite: string, file: string, projectRoot: string): SuiteClaim {
  const tenantDir = join(dir, tenant)
  mkdirSync(tenantDir, { recursive: true })
  const claim = join(tenantDir, `${suite}.claim`)
  const contest = join(tenantDir, `${suite}.contested`)
  const temp = join(tenantDir, `.${suite}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}`)
  writeFileSync(temp, file)
  try {
    linkSync(temp, claim)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    const holder = readFileSync(claim, 'utf8')
    if (holder !== file) {
      try {
        linkSync(temp, contest)
      } catch {
        // a third file: the first contest already says enough
      }
      const [a, b] = [relative(projectRoot, holder), relative(projectRoot, file)]
      throw duplicate(suite, tenant, a, b)
    }
  } finally {
    rmSync(temp, { force: true })
  }
  return {
    contested() {
      try {
        const other = readFileSync(contest, 'utf8')
        return other === file ? undefined : other
      } catch {
        return undefined
      }
    },
  }
}

export function duplicate(suite: string, tenant: string, first: string, second: string): DuplicateSuiteNameError {
  return new DuplicateSuiteNameError(
    `suite ${suite} (tenant ${tenant}) is declared by two files, ${first} and ${second}: both would write under the same keys, so it was refused before any call`,
    `Rename the suite in ${second} (or in ${first}), then run again`,
    ['name'],
  )
}
