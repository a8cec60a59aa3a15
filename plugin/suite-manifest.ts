// When the CLI needs to know the suites as they are declared now (their config_hash, say), it runs
// `vitest list` with DIGLINE_MANIFEST set; each evalSuite() call then appends one line there.
import { appendFileSync } from 'node:fs'
import type { RunContext } from '../src/host/index.js'
import { suiteIdentity } from '../src/suite/resolve-suite.js'
import type { ResolvedSuite } from '../src/suite/types.js'
import type { RefusedSuiteFile, SuiteManifestEntry } from '../src/host/index.js'
import { inputDigest, targetDigest } from '../src/suite/cache-key.js'

export function recordInManifest(suite: ResolvedSuite, ctx: RunContext, file: string | undefined, env: NodeJS.ProcessEnv = process.env): void {
  const path = env.DIGLINE_MANIFEST
  if (path === undefined || path === '') return
  const { configHash, casesDigest } = suiteIdentity(suite)
  const entry: SuiteManifestEntry = {
    suite: suite.name,
    tenant: ctx.tenant,
    config_hash: configHash,
    cases_digest: casesDigest,
    cases: suite.cases.length,
    ...(file === undefined ? {} : { file }),
    ...(suite.variant === undefined ? {} : { variant: { suite: suite.variant.suite, name: suite.variant.name } }),
    cache: {
      target: targetDigest(suite.targetConfig),
      inputs: Object.fromEntries(suite.cases.map((c) => [c.id, inputDigest(c.input)])),
      artifacts: [...suite.artifacts],
      root: ctx.projectRoot,
    },
  }
  appendFileSync(path, `${JSON.stringify(entry)}\n`)
}

/** A file whose evalSuite() is refused still declares a suite: a launch narrowed to suite files must run it, so the refusal is seen. */
export function recordRefusalInManifest(file: string | undefined, env: NodeJS.ProcessEnv = process.env): void {
  const path = env.DIGLINE_MANIFEST
  if (path === undefined || path === '' || file === undefined) return
  const line: RefusedSuiteFile = { refused_file: file }
  appendFileSync(path, `${JSON.stringify(line)}\n`)
}
