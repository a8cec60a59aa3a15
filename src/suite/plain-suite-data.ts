// SPEC §4: every value of a suite that enters a hash or a document is plain JSON data, refused by
// name and path before any call when it is not.
import { InvalidSuiteError } from './errors.js'
import { describeNotPlain, findNotPlain, readablePath, type NotPlain } from './plain-data.js'
import type { InlineCasesDefinition, ResolvedScorer } from './types.js'

/** Throws InvalidSuiteError naming the first value that is not plain JSON data. */
export function refuseNotPlainSuiteData(def: InlineCasesDefinition, scorers: readonly ResolvedScorer[]): void {
  const offence = firstNotPlain(def, scorers)
  if (offence === undefined) return
  const where = readablePath(offence.path)
  throw new InvalidSuiteError(
    `suite ${JSON.stringify(def.name)} was refused: ${describeNotPlain(offence)}. Case inputs, expected values and metadata, the target's and the scorers' configs and the suite's metadata are hashed or written as JSON, so they must be plain JSON data`,
    `Fix ${where} in the suite file, then run \`vitest run\` again.`,
    offence.path,
  )
}

function firstNotPlain(def: InlineCasesDefinition, scorers: readonly ResolvedScorer[]): NotPlain | undefined {
  for (const [i, c] of def.cases.entries()) {
    const offence =
      findNotPlain(c.input, ['cases', i, 'input'], { allowUndefinedRoot: true }) ??
      findNotPlain(c.expected, ['cases', i, 'expected'], { allowUndefinedRoot: true }) ??
      findNotPlain(c.metadata, ['cases', i, 'metadata'], { allowUndefinedRoot: true })
    if (offence !== undefined) return offence
  }
  if (def.target !== undefined && typeof def.target !== 'function') {
    const offence = findNotPlain(def.target.config, ['target', 'config'], { allowUndefinedRoot: true })
    if (offence !== undefined) return offence
  }
  for (const [i, scorer] of scorers.entries()) {
    const offence = findNotPlain(scorer.config, ['scorers', i, 'config'])
    if (offence !== undefined) return offence
  }
  return findNotPlain(def.metadata, ['metadata'], { allowUndefinedRoot: true })
}
