// One suite name, one file, per launch: every evalSuite() claims its (tenant, suite) in a directory
// the plugin's main process made for this launch, by a hard link that fails if the name is taken
// (atomic across Vitest workers). The claim holds the claiming file's path, so the refusal names both,
// and for a variant the suite it is a variant of: a suite named pick.small and variant small of suite
// pick collide even when one file declares both (ADR 0416).
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { DuplicateSuiteNameError } from './errors.js'
import { describeVariantIdentity, variantNameCollision, type VariantIdentity } from '../src/suite/variants.js'
import type { VariantNameCollisionError } from '../src/suite/errors.js'

/** What a claim file holds: the file's path, then (for a variant) a line with the suite and the variant's name. */
export function claimText(file: string, variant: VariantIdentity): string {
  return variant === undefined ? file : `${file}\n${JSON.stringify([variant.suite, variant.name])}`
}

function readClaim(text: string): { file: string; variant: VariantIdentity } {
  const [file, variant] = text.split('\n')
  if (variant === undefined) return { file: file!, variant: undefined }
  const [suite, name] = JSON.parse(variant) as [string, string]
  return { file: file!, variant: { suite, name } }
}

export interface SuiteClaim {
  /** Whether another file tried to declare the same suite after this one claimed it. */
  contested(): string | undefined
}

export function claimSuiteName(dir: string, tenant: string, suite: string, file: string, projectRoot: string, variant?: VariantIdentity): SuiteClaim {
  const mine = claimText(file, variant)
  const tenantDir = join(dir, tenant)
  mkdirSync(tenantDir, { recursive: true })
  const claim = join(tenantDir, `${suite}.claim`)
  const contest = join(tenantDir, `${suite}.contested`)
  const temp = join(tenantDir, `.${suite}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}`)
  writeFileSync(temp, mine)
  try {
    linkSync(temp, claim)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    const holder = readFileSync(claim, 'utf8')
    if (holder !== mine) {
      try {
        linkSync(temp, contest)
      } catch {
        // a third file: the first contest already says enough
      }
      throw refusal(suite, tenant, projectRoot, holder, mine)
    }
  } finally {
    rmSync(temp, { force: true })
  }
  return {
    contested() {
      try {
        const other = readFileSync(contest, 'utf8')
        return other === mine ? undefined : other
      } catch {
        return undefined
      }
    },
  }
}

/** Why a second declaration of a claimed name is refused: two files declare one suite, or a suite and a variant share a name. */
export function refusal(suite: string, tenant: string, projectRoot: string, firstClaim: string, secondClaim: string): DuplicateSuiteNameError | VariantNameCollisionError {
  const [first, second] = [readClaim(firstClaim), readClaim(secondClaim)]
  const [a, b] = [relative(projectRoot, first.file), relative(projectRoot, second.file)]
  if (first.variant === undefined && second.variant === undefined) return duplicate(suite, tenant, a, b)
  const plain = first.variant === undefined ? a : second.variant === undefined ? b : undefined
  return variantNameCollision(
    suite,
    `suite ${suite} (tenant ${tenant}) was refused`,
    `${a} declares ${describeVariantIdentity(first.variant)}`,
    `${b} declares ${describeVariantIdentity(second.variant)}`,
    'it was refused before any call',
    plain === undefined ? undefined : `Rename the suite ${suite} in ${plain} (say to ${suite.replaceAll('.', '-')}), then run again`,
  )
}

function duplicate(suite: string, tenant: string, first: string, second: string): DuplicateSuiteNameError {
  return new DuplicateSuiteNameError(
    `suite ${suite} (tenant ${tenant}) is declared by two files, ${first} and ${second}: both would write under the same keys, so it was refused before any call`,
    `Rename the suite in ${second} (or in ${first}), then run again`,
    ['name'],
  )
}
