// fast-glob loaded only when a suite declares a glob: every pattern fast-glob calls dynamic contains one
// of `* ? [ ( { !`, so a plain path is answered without loading it.
type FastGlob = typeof import('fast-glob')

let loaded: Promise<FastGlob> | undefined
const fastGlob = (): Promise<FastGlob> => (loaded ??= import('fast-glob').then((mod) => mod.default))

const MAYBE_GLOB = /[*?[({!]/

export async function isGlob(pattern: string): Promise<boolean> {
  return MAYBE_GLOB.test(pattern) && (await fastGlob()).isDynamicPattern(pattern)
}

/** The files (not directories) the pattern matches under root, in fast-glob's order. */
export async function globMatches(pattern: string, root: string): Promise<string[]> {
  return (await fastGlob())(pattern, { cwd: root, onlyFiles: true })
}
