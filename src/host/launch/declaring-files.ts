// Which files of a project likely declare a suite: those that call evalSuite and hold the suite's name
// as a string literal. Neither the run document nor the journal records the suite file, so this is
// only a hint that narrows `vitest list`: what the narrowed listing declares is checked, and a suite
// it does not find is looked for over every file, as before (ADR 0500).
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'

const SOURCE = /\.[cm]?[jt]sx?$/
/** Past these the walk gives up and every file is listed: the hint must cost less than what it saves. */
const MAX_ENTRIES = 20_000
const MAX_BYTES = 64 * 1024 * 1024

/**
 * The files under `root` (relative to it) that may declare each of `suites`, or undefined when one of
 * them is named by no file or the project is too large to read: then there is nothing to narrow to.
 */
export function likelyDeclaringFiles(root: string, suites: readonly string[]): string[] | undefined {
  // A variant S.V is declared by the evalSuite() that names S.
  const names = suites.map((suite) => suite.split('.').map((_, i, parts) => parts.slice(0, i + 1).join('.')))
  const found = names.map(() => false)
  const files: string[] = []
  const budget = { entries: MAX_ENTRIES, bytes: MAX_BYTES }
  const pending = [root]
  while (pending.length > 0) {
    const dir = pending.pop()!
    let entries
    try {
      entries = readdirSync(dir, { withFileTypes: true })
    } catch {
      continue
    }
    if ((budget.entries -= entries.length) < 0) return undefined
    for (const entry of entries) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue
      const path = join(dir, entry.name)
      if (entry.isDirectory()) pending.push(path)
      else if (entry.isFile() && SOURCE.test(entry.name)) {
        let text: string
        try {
          text = readFileSync(path, 'utf8')
        } catch {
          continue
        }
        if ((budget.bytes -= text.length) < 0) return undefined
        if (!text.includes('evalSuite')) continue
        const named = names.map((candidates) => candidates.some((name) => [`'${name}'`, `"${name}"`, `\`${name}\``].some((literal) => text.includes(literal))))
        if (!named.includes(true)) continue
        named.forEach((yes, i) => (found[i] ||= yes))
        // A file filter that starts with - would be read as an option.
        const file = relative(root, path)
        files.push(file.startsWith('-') ? `./${file}` : file)
      }
    }
  }
  return found.every(Boolean) ? files.sort() : undefined
}
