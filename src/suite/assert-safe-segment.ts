// The refusal for a tenant, suite or key that is not one safe path segment, raised before any I/O.
import { PathRefusedError } from './errors.js'
import { isSafeSegment, SAFE_SEGMENT_RULE } from './safe-segment.js'

export type SegmentKind = 'tenant' | 'suite' | 'key' | 'case'

/** Refuses a tenant, suite or key that is not one safe path segment. */
export function assertSafeSegment(kind: SegmentKind, value: unknown): asserts value is string {
  if (isSafeSegment(value)) return
  const shown = typeof value === 'string' ? JSON.stringify(value.length > 140 ? `${value.slice(0, 140)}…` : value) : String(value)
  throw new PathRefusedError(
    `refused the ${kind} ${shown}: it is not one safe path segment (${SAFE_SEGMENT_RULE}, not "." or "..")`,
    `use a ${kind} name matching ${SAFE_SEGMENT_RULE}`,
    [kind],
  )
}
