// A temp directory where digline is installed the way a user installs it: the packed tarball plus the
// peers a user adds (vitest, and the model SDKs the e2e suites import), by npm, into the directory's
// OWN node_modules. The layout is npm's `nested` one (no hoisting): like pnpm and Yarn PnP, a package
// reaches only what it declares, so an undeclared import fails here as it would for those users.
// npm reads the local cache first (--prefer-offline); CI has just filled it with `npm ci`.
// Projects made with makeProject() live below it and resolve from it.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

export const REPO = resolve(import.meta.dirname, '..', '..')

/** What a user puts next to digline: vitest, and the SDKs of the model adapters they use (pinned as in our devDependencies). */
const USER_PEERS = ['vitest', 'openai', 'ai', '@ai-sdk/openai', 'pg']

/** npm's own settings from the `npm test` that started us (npm_config_local_prefix…) would point npm at the repository. */
function npmEnv(): NodeJS.ProcessEnv {
  const keep = new Set(['npm_config_cache', 'npm_config_registry', 'npm_config_userconfig'])
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_') || keep.has(k.toLowerCase())))
}

export function installPackedDigline(): string {
  if (!existsSync(join(REPO, 'dist', 'src', 'cli', 'bin.js'))) throw new Error('dist/src/cli/bin.js is missing: run npm run build first')
  const root = mkdtempSync(join(tmpdir(), 'digline-e2e-'))
  const env = npmEnv()
  const packed = execFileSync('npm', ['pack', '--silent', '--pack-destination', root], { cwd: REPO, encoding: 'utf8', env }).trim().split('\n').pop()!
  const dev = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies
  const dependencies: Record<string, string> = { digline: `file:./${packed}` }
  for (const name of USER_PEERS) dependencies[name] = dev[name]!
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'digline-e2e-user', private: true, type: 'module', dependencies }, null, 2))
  execFileSync('npm', ['install', '--prefix', root, '--prefer-offline', '--install-strategy=nested', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error'], {
    cwd: root,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  if (!existsSync(join(root, 'node_modules', 'digline', 'dist', 'src', 'cli', 'bin.js'))) throw new Error(`the installed package has no dist/src/cli/bin.js (${root})`)
  return root
}
