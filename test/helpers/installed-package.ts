// A temp directory where digline is installed the way a user installs it: from the packed tarball.
// Its other dependencies (vitest, vite, zod…) are linked from the repository's node_modules, so the
// tests need no network. Projects made with makeProject() live below it and resolve from it.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

export const REPO = resolve(import.meta.dirname, '..', '..')

export function installPackedDigline(): string {
  const root = mkdtempSync(join(tmpdir(), 'digline-e2e-'))
  const modules = join(root, 'node_modules')
  mkdirSync(modules)
  const packed = execFileSync('npm', ['pack', '--silent', '--pack-destination', root], { cwd: REPO, encoding: 'utf8' }).trim().split('\n').pop()!
  const target = join(modules, 'digline')
  mkdirSync(target)
  execFileSync('tar', ['-xzf', join(root, packed), '-C', target, '--strip-components=1'])
  for (const entry of readdirSync(join(REPO, 'node_modules'))) {
    if (entry === 'digline' || entry.startsWith('.')) continue
    symlinkSync(join(REPO, 'node_modules', entry), join(modules, entry))
  }
  mkdirSync(join(modules, '.bin'), { recursive: true })
  if (!existsSync(join(target, 'dist', 'src', 'cli', 'bin.js'))) throw new Error('the packed tarball has no dist/src/cli/bin.js: run npm run build first')
  return root
}
