// What the file store's parts share about baselines: the baseline a promotion wrote, and the part of
// the baselines its delete plan reads. Callers outside the store use the Store contract (contract.ts).

export interface StoredBaseline {
  tenant: string
  suite: string
  /** The key of the promoted run. */
  key: string
  /** Where the baseline is, for messages. */
  location: string
}

/** The baselines as the file store's delete plan reads them (file/delete.ts, file/delete-plan.ts). */
export interface SupportsBaselines {
  readBaseline(tenant: string, suite: string): Promise<import('../document/baseline.js').BaselineDocument | undefined>
  /** Where the baseline is, for messages. */
  baselineLocation(tenant: string, suite: string): string
}
