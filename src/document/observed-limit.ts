// How much of a run document's header the observed identities may take. The header is measured
// before any call with no identity observed, plus this reserve (store/header-bounds.ts); an id that
// would not fit what is left errors its case in the driver, so a run never pays for every case and
// is then refused at the write (issue 23 item 9, ADR 0131).
import type { Observed } from './schema.js'

/** Room a document header keeps, from the start of a run, for what only its end knows: `observed` and `cached_answers`. */
export const OBSERVED_RESERVE_BYTES = 16 * 1024

/** The most `observed` may take as JSON; the rest of the reserve is for the `cached_answers` line. */
export const OBSERVED_LIMIT_BYTES = OBSERVED_RESERVE_BYTES - 256

/** The bytes `observed` takes in the header, as the serializer writes it. */
export function observedBytes(observed: Observed): number {
  return Buffer.byteLength(JSON.stringify(observed), 'utf8')
}
