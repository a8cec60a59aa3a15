const SAFE_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/

/** One path segment that cannot climb, hide or surprise: tenants, suites, keys and case ids. */
export function isSafeSegment(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 128 && SAFE_SEGMENT.test(value) && value !== '.' && value !== '..'
}

export const SAFE_SEGMENT_RULE = '[A-Za-z0-9][A-Za-z0-9._-]*, at most 128 characters'
