// A temp directory where digline is installed the way a user installs it: the packed tarball plus the
// peers a user adds (vitest, and the model SDKs the e2e suites import), by npm, into the directory's
// OWN node_modules. The layout is npm's `nested` one (no hoisting): like pnpm and Yarn PnP, a package
// reaches only what it declares, so an undeclared import fails here as it would for those users.
// npm reads the local cache first (--prefer-offline); CI has just filled it with `npm ci`.
// Projects made with makeProject() live below it and resolve from it.
import { execFile, execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'

export const REPO = resolve(import.meta.dirname, '..', '..')

/** What a user puts next to digline: vitest and its UI, and the SDKs of the model adapters they use (pinned as in our devDependencies). */
const USER_PEERS = ['vitest', '@vitest/ui', 'openai', 'ai', '@ai-sdk/openai', 'pg']

/** npm's own settings from the `npm test` that started us (npm_config_local_prefix…) would point npm at the repository. */
function npmEnv(): NodeJS.ProcessEnv {
  const keep = new Set(['npm_config_cache', 'npm_config_registry', 'npm_config_userconfig'])
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_') || keep.has(k.toLowerCase())))
}

const PACKAGE = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { bin: { digline: string }; devDependencies: Record<string, string> }
/** Where package.json's `bin` puts the digline command, inside the package. */
const BIN = PACKAGE.bin.digline

/** The digline command of the package installed in the install root `root`. */
export function installedBin(root: string): string {
  return join(root, 'node_modules', 'digline', BIN)
}

function assertBuilt(): void {
  if (!existsSync(join(REPO, BIN))) throw new Error(`${BIN} is missing: run npm run build first`)
}

const PACK = ['pack', '--silent', '--pack-destination']
const INSTALL = ['--prefer-offline', '--install-strategy=nested', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error']

/** The user's package.json: the tarball npm pack printed last, and the peers. */
function writeUserPackage(root: string, packOutput: string): void {
  const packed = packOutput.trim().split('\n').pop()!
  const dev = PACKAGE.devDependencies
  const dependencies: Record<string, string> = { digline: `file:./${packed}` }
  for (const name of USER_PEERS) dependencies[name] = dev[name]!
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'digline-e2e-user', private: true, type: 'module', dependencies }, null, 2))
}

function assertInstalled(root: string): void {
  if (!existsSync(installedBin(root))) throw new Error(`the installed package has no ${BIN} (${root})`)
}

/** Packs and installs into a new temp directory before it returns. */
export function installPackedDigline(): string {
  assertBuilt()
  const root = mkdtempSync(join(tmpdir(), 'digline-e2e-'))
  const env = npmEnv()
  writeUserPackage(root, execFileSync('npm', [...PACK, root], { cwd: REPO, encoding: 'utf8', env }))
  execFileSync('npm', ['install', '--prefix', root, ...INSTALL], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] })
  assertInstalled(root)
  return root
}

/**
 * The same install without blocking the caller: the directory at once, the install as a promise. The
 * test run's global setup starts it, so that the files needing no install run meanwhile (ADR 0170).
 */
export function startPackedInstall(signal?: AbortSignal): { root: string; done: Promise<void> } {
  assertBuilt()
  const root = mkdtempSync(join(tmpdir(), 'digline-e2e-'))
  const env = npmEnv()
  const run = promisify(execFile)
  const done = (async () => {
    writeUserPackage(root, (await run('npm', [...PACK, root], { cwd: REPO, encoding: 'utf8', env, signal })).stdout)
    await run('npm', ['install', '--prefix', root, ...INSTALL], { cwd: root, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, signal })
    assertInstalled(root)
  })()
  return { root, done }
}

/** Files the global setup leaves in the install's root when the install has ended: one or the other. */
const READY = '.digline-installed'
const FAILED = '.digline-install-failed'

/** Starts the install and records its end in the root, for test workers in other processes; `stop` ends npm early. */
export function startRecordedInstall(): { root: string; settled: Promise<void>; stop: () => void } {
  const stopper = new AbortController()
  const { root, done } = startPackedInstall(stopper.signal)
  const settled = done.then(
    () => writeFileSync(join(root, READY), ''),
    (error: unknown) => writeFileSync(join(root, FAILED), error instanceof Error ? (error.stack ?? error.message) : String(error)),
  )
  return { root, settled, stop: () => stopper.abort() }
}

/** Resolves once the install recorded in `root` has ended; rejects with npm's words when it failed. */
export async function installEnded(root: string): Promise<void> {
  for (;;) {
    if (existsSync(join(root, READY))) return
    if (existsSync(join(root, FAILED))) throw new Error(`installing the packed digline failed: ${readFileSync(join(root, FAILED), 'utf8')}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}
