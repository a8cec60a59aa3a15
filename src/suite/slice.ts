// Tags on cases, and the slice of a suite a launch runs by tag (`digline run --tag T`, DIGLINE_TAGS).
import { EmptySliceError, InvalidOptionsError } from './errors.js'
import type { ResolvedSuite } from './types.js'

/** The environment variable that names a launch's slice: tags separated by commas. */
export const TAGS_ENV = 'DIGLINE_TAGS'

const TAG = /^[^\s,]{1,64}$/

/** A tag: 1 to 64 characters, no whitespace and no comma (DIGLINE_TAGS separates tags by commas). */
export function isTag(value: unknown): value is string {
  return typeof value === 'string' && TAG.test(value)
}

export const TAG_RULE = '1 to 64 characters without whitespace or commas'

/** The tags DIGLINE_TAGS names, in the order given and without repeats; undefined when it is unset or empty. */
export function sliceTags(env: NodeJS.ProcessEnv = process.env): readonly string[] | undefined {
  const raw = env[TAGS_ENV]
  if (raw === undefined || raw.trim() === '') return undefined
  const tags = [...new Set(raw.split(',').map((t) => t.trim()))]
  const bad = tags.find((t) => !isTag(t))
  if (bad !== undefined) {
    throw new InvalidOptionsError(
      `${TAGS_ENV}=${JSON.stringify(raw)} was refused: ${JSON.stringify(bad)} is not a tag (${TAG_RULE})`,
      'Name each tag once, separated by commas: `digline run --tag billing --tag refunds` or DIGLINE_TAGS=billing,refunds.',
      [TAGS_ENV],
    )
  }
  return tags
}

/** The suite narrowed to the cases that carry any of `tags` (none may); the suite itself when `tags` is undefined. */
export function sliceSuite(suite: ResolvedSuite, tags: readonly string[] | undefined): ResolvedSuite {
  if (tags === undefined) return suite
  const wanted = new Set(tags)
  const cases = suite.cases.filter((c) => c.tags?.some((t) => wanted.has(t)) === true)
  return { ...suite, cases, slice: { tags: [...tags], suite_cases: suite.cases.length } }
}

/** `tag billing` or `tags billing, refunds`. */
export function describeSliceTags(tags: readonly string[]): string {
  return `${tags.length === 1 ? 'tag' : 'tags'} ${tags.join(', ')}`
}

/** For a launch that ran no suite: the refusal when it was a slice by tag (no case carries the tags), else undefined. */
export function emptySliceRefusal(env: NodeJS.ProcessEnv = process.env): EmptySliceError | undefined {
  let tags: readonly string[] | undefined
  try {
    tags = sliceTags(env)
  } catch {
    return undefined
  }
  if (tags === undefined) return undefined
  return new EmptySliceError(
    `no case of any suite in this launch carries the ${describeSliceTags(tags)}, so nothing was run or filed`,
    `Check the ${tags.length === 1 ? 'tag' : 'tags'} against the cases' tags, or run without --tag (\`digline run\`).`,
    [TAGS_ENV],
  )
}
