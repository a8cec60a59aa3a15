// The baseline protocol: a store that keeps committed baselines and the promotion register.
// FileResultStore implements it over `.digline/<tenant>/baselines/` and `register.jsonl`.
import type { BaselineDocument, RegisterEntry } from '../document/baseline.js'

export interface StoredBaseline {
  tenant: string
  suite: string
  /** The key of the promoted run. */
  key: string
  /** Where the baseline is, for messages. */
  location: string
}

export interface SupportsBaselines {
  /**
   * The suite's baseline, or undefined when none was promoted. Refuses one that cannot be read
   * (UnreadableBaselineError, UnknownSchemaVersionError) or that belongs to another tenant or suite
   * (TenantMismatchError, SuiteMismatchError).
   */
  readBaseline(tenant: string, suite: string): Promise<BaselineDocument | undefined>
  /** Replaces the suite's baseline atomically, or leaves the previous one byte-identical. */
  writeBaseline(doc: BaselineDocument): Promise<StoredBaseline>
  /** Puts back the bytes a baseline had before (undefined: there was none); the undo of writeBaseline. */
  restoreBaseline(tenant: string, suite: string, previous: Uint8Array | undefined): Promise<void>
  /** The baseline file's bytes as they are, or undefined when there is none. */
  baselineBytes(tenant: string, suite: string): Promise<Uint8Array | undefined>
  /** One line appended to the tenant's register with one write, then fsynced. */
  appendRegister(tenant: string, entry: RegisterEntry): Promise<void>
  /** Every promotion of the tenant, oldest first; any line that is not an entry is refused by number. */
  readRegister(tenant: string): Promise<RegisterEntry[]>
  /** Where the baseline and the register are, for messages. */
  baselineLocation(tenant: string, suite: string): string
  registerLocation(tenant: string): string
}

export function supportsBaselines(store: unknown): store is SupportsBaselines {
  return typeof store === 'object' && store !== null && 'readBaseline' in store && 'writeBaseline' in store && 'appendRegister' in store
}
