// Which earlier runs may speak for the same system: flaky cases and `digline plan` read only those.
import type { RunHeader } from '../../document/schema.js'
import { canonicalJson } from '../../suite/hashing.js'

/**
 * An earlier run whose verdicts can speak for the same system: the same rules (config_hash, which
 * leaves the target out), the same declared target config and the same reported target model
 * (issue 23 item 12). A deliberately different target version is a change to measure, not noise.
 */
export function sameRulesAndTarget(
  earlier: Pick<RunHeader, 'config_hash' | 'target_config' | 'observed'>,
  run: Pick<RunHeader, 'config_hash' | 'target_config' | 'observed'>,
): boolean {
  return (
    earlier.config_hash === run.config_hash &&
    earlier.observed.target_model === run.observed.target_model &&
    canonicalJson(earlier.target_config) === canonicalJson(run.target_config)
  )
}
