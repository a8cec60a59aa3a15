// The suites as they are declared now, read by running `vitest list` with DIGLINE_MANIFEST set:
// the CLI learns a suite's current config_hash without importing Vitest or running any case.
import { spawn } from 'node:child_process'
import { readFileSync, rmSync } from 'node:fs'
import { makeTempDir } from '../../suite/temp-dir.js'
import { join } from 'node:path'
import { likelyDeclaringFiles } from './declaring-files.js'

export interface SuiteManifestEntry {
  suite: string
  tenant: string
  config_hash: string
  cases_digest: string
  cases: number
  /** The suite file that declared it (absolute), when known. */
  file?: string
  /** For a variant (ADR 0300): the suite as declared and the variant's name; `suite` is then `<suite>.<variant>`. */
  variant?: { suite: string; name: string }
  /** What the response cache keys a case's answers by, as declared now (digests only; see cache-why.ts). */
  cache?: ManifestCacheParts
}

/** A manifest line for a file whose evalSuite() was refused at collection: it declares a suite, which cannot start. */
export interface RefusedSuiteFile {
  refused_file: string
}

export interface ManifestCacheParts {
  /** sha256 of the declared target config. */
  target: string
  /** Each case's input digest, by case id. */
  inputs: Record<string, string>
  /** The suite's declared artifacts and the root they are relative to: digested by whoever reads the manifest. */
  artifacts: string[]
  root: string
}

/**
 * Runs `vitest list` (collection only: no case is called) and returns what evalSuite() declared;
 * `vitestArgs` (file filters, --project…) narrow it as they would narrow `vitest run`.
 */
export async function collectSuiteManifest(
  vitestBin: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  configFile?: string,
  vitestArgs: readonly string[] = [],
  /** Filled with the files whose evalSuite() was refused at collection (they declare a suite that cannot start). */
  refusedFiles?: string[],
  /** Say nothing of a listing that failed (a narrowed listing, retried over every file). */
  quiet = false,
): Promise<SuiteManifestEntry[]> {
  const dir = makeTempDir('digline-manifest-')
  const path = join(dir, 'manifest.jsonl')
  try {
    // Vitest 5 lists by parsing the files unless told otherwise; digline learns the suites only by running them.
    const args = [vitestBin, 'list', '--no-static-parse', ...vitestArgs, '--json', ...(configFile === undefined ? [] : ['--config', configFile])]
    const stderr = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, args, { cwd, env: { ...env, DIGLINE_MANIFEST: path }, stdio: ['ignore', 'ignore', 'pipe'] })
      let err = ''
      child.stderr.on('data', (d) => (err += d))
      child.on('error', reject)
      child.on('close', () => resolve(err))
    })
    let text = ''
    try {
      text = readFileSync(path, 'utf8')
    } catch {
      if (stderr.trim() !== '' && !quiet) process.stderr.write(stderr)
    }
    const lines = text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as SuiteManifestEntry | RefusedSuiteFile)
    for (const line of lines) if ('refused_file' in line) refusedFiles?.push(line.refused_file)
    return lines.filter((line): line is SuiteManifestEntry => !('refused_file' in line))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * The suites declared now, for a command about these suites only: listed first over the files likely
 * to declare them (declaring-files.ts), and over every file, as before, unless `enough` holds for what
 * that found (ADR 0500). `vitestArgs` must hold no file filter: a filter added to it would widen it.
 */
export async function collectNamedSuites(
  suites: readonly string[],
  enough: (declared: readonly SuiteManifestEntry[]) => boolean,
  vitestBin: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  configFile?: string,
  vitestArgs: readonly string[] = [],
): Promise<SuiteManifestEntry[]> {
  const files = suites.length === 0 ? undefined : likelyDeclaringFiles(cwd, suites)
  if (files !== undefined) {
    const narrowed = await collectSuiteManifest(vitestBin, cwd, env, configFile, [...vitestArgs, ...files], undefined, true)
    if (enough(narrowed)) return narrowed
  }
  return collectSuiteManifest(vitestBin, cwd, env, configFile, vitestArgs)
}
