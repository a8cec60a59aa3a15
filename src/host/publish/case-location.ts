// Where a regressed case's annotation points: the line of its suite file that names the case id (as
// a string literal), else the line that calls evalSuite, else the file's first line. Without a known
// suite file, the committed baseline it regressed against (docs/format.md's layout), when the store is
// a directory in the workspace; else nowhere, and the case is named in the check run's summary only.
import { existsSync, readFileSync } from 'node:fs'
import { isAbsolute, join, relative, sep } from 'node:path'
import { storeTarget } from '../../store/store-locator.js'

export interface CaseLocation {
  /** Relative to the repository's root, with forward slashes, as GitHub names files. */
  path: string
  line: number
}

function inWorkspace(file: string, workspace: string): string | undefined {
  const rel = relative(workspace, file)
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return undefined
  return rel.split(sep).join('/')
}

function lineOf(source: string, caseId: string): number {
  const lines = source.split('\n')
  const quoted = [`'${caseId}'`, `"${caseId}"`, `\`${caseId}\``]
  const named = lines.findIndex((line) => quoted.some((q) => line.includes(q)))
  if (named >= 0) return named + 1
  const declared = lines.findIndex((line) => line.includes('evalSuite('))
  return declared >= 0 ? declared + 1 : 1
}

/** The case's line in its suite file, when that file is known and lies in the workspace. */
export function locateInSuiteFile(suiteFile: string, caseId: string, workspace: string): CaseLocation | undefined {
  const path = inWorkspace(suiteFile, workspace)
  if (path === undefined) return undefined
  try {
    return { path, line: lineOf(readFileSync(suiteFile, 'utf8'), caseId) }
  } catch {
    return undefined
  }
}

/** The committed baseline file of the suite, for a file store in the workspace. */
export function baselineLocation(storeLocator: string, tenant: string, suite: string, workspace: string): CaseLocation | undefined {
  const target = storeTarget(storeLocator)
  if (target.kind !== 'file') return undefined
  const file = join(target.root, tenant, 'baselines', `${suite}.json`)
  const path = inWorkspace(file, workspace)
  return path !== undefined && existsSync(file) ? { path, line: 1 } : undefined
}
