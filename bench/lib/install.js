// digline installed the way a user installs it (as test/helpers/installed-package.ts does): the
// packed tarball extracted into node_modules/digline of a temp directory, every other dependency
// linked from the repository's node_modules, so nothing is fetched. The in-process figures import
// digline's single modules (tsc's dist/src and dist/plugin, which the tarball's bundle is made of,
// ADR 0550) from a copy placed beside the bundle, so a rebuild of dist/ cannot change what they measure.
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync } from 'node:fs'
import { join, resolve } from 'node:path'

export const REPO = resolve(import.meta.dirname, '..', '..')

/** Returns the install root; projects made below it resolve `digline` and `vitest` from it. */
export function installPackedDigline(parent, from = REPO) {
  if (!existsSync(join(from, 'dist', 'bundle', 'plugin', 'index.js'))) throw new Error(`${from} has no dist/: run npm run build first (npm run bench does)`)
  const root = mkdtempSync(join(parent, 'install-'))
  const modules = join(root, 'node_modules')
  mkdirSync(modules)
  const packed = execFileSync('npm', ['pack', '--silent', '--pack-destination', root], { cwd: from, encoding: 'utf8' }).trim().split('\n').pop()
  const target = join(modules, 'digline')
  mkdirSync(target)
  execFileSync('tar', ['-xzf', join(root, packed), '-C', target, '--strip-components=1'])
  for (const modules of ['src', 'plugin']) cpSync(join(from, 'dist', modules), join(target, 'dist', modules), { recursive: true })
  for (const entry of readdirSync(join(REPO, 'node_modules'))) {
    if (entry === 'digline' || entry.startsWith('.')) continue
    symlinkSync(join(REPO, 'node_modules', entry), join(modules, entry))
  }
  return root
}

/** Paths inside an install root. */
export function installed(root) {
  const pkg = join(root, 'node_modules', 'digline')
  return {
    root,
    pkg,
    dist: (rel) => join(pkg, 'dist', rel),
    vitestBin: join(root, 'node_modules', 'vitest', 'vitest.mjs'),
  }
}
