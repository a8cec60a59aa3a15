// Where a front end finds the tenant and the store: the digline() plugin options in the Vitest config,
// overridden by --tenant and --store.
import { statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { ConfigNotFoundError, UsageError } from '../errors.js'
import { resolveOptions, type DiglineOptions, type ResolvedOptions } from './plugin-options.js'
import { storeLocator } from '../../store/open-store.js'
import { isRefusal } from '../../errors/recognise.js'

const CONFIG_NAMES = ['vitest.config.ts', 'vitest.config.mts', 'vitest.config.js', 'vitest.config.mjs', 'vite.config.ts', 'vite.config.mts', 'vite.config.js', 'vite.config.mjs']

export interface ProjectFlags {
  config?: string
  tenant?: string
  store?: string
}

export interface ProjectSettings extends ResolvedOptions {
  /** The Vitest root, where relative store paths start. */
  root: string
  /** The config file read, if any. */
  configFile: string | undefined
}

export function findConfigFile(cwd: string, explicit: string | undefined): string | undefined {
  if (explicit !== undefined) {
    const path = resolve(cwd, explicit)
    if (!isFile(path)) throw new UsageError(`--config ${JSON.stringify(explicit)} was refused: it is not a file`, 'Pass the path of your vitest.config.ts.', ['--config'])
    return path
  }
  return CONFIG_NAMES.map((n) => resolve(cwd, n)).find((p) => isFile(p))
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}

function findPluginOptions(plugins: unknown): DiglineOptions | undefined {
  if (Array.isArray(plugins)) {
    for (const p of plugins) {
      const found = findPluginOptions(p)
      if (found !== undefined) return found
    }
    return undefined
  }
  if (plugins !== null && typeof plugins === 'object' && (plugins as { name?: unknown }).name === 'digline') {
    return (plugins as { api?: { digline?: { options?: DiglineOptions } } }).api?.digline?.options
  }
  return undefined
}

async function readPluginOptions(configFile: string): Promise<{ options: DiglineOptions | undefined; root: string }> {
  // vite is a peer dependency (ADR 0031): the one the user's vitest runs on, never a copy of our own.
  const { loadConfigFromFile } = await import('vite').catch((error: unknown) => {
    const why = (error instanceof Error ? error.message : String(error)).split('\n')[0]
    throw new ConfigNotFoundError(
      `${configFile} cannot be read: vite, a peer dependency of digline and vitest, could not be loaded (${why})`,
      'Install it next to vitest (npm install -D vite), or pass --tenant T (and --store DIR).',
      ['--config'],
    )
  })
  let loaded: Awaited<ReturnType<typeof loadConfigFromFile>>
  try {
    loaded = await loadConfigFromFile({ command: 'serve', mode: 'test' }, configFile, dirname(configFile), 'silent')
  } catch (error) {
    // the config's own load raised a refusal of digline's (CommonJsConfigError): it says what to change
    if (isRefusal(error)) throw error
    const why = (error instanceof Error ? error.message : String(error)).split('\n')[0]
    throw new ConfigNotFoundError(
      `${configFile} could not be loaded as a Vitest config: ${why}`,
      'Fix the config, pass another with --config, or pass --tenant T (and --store DIR).',
      ['--config'],
    )
  }
  const config = (loaded?.config ?? {}) as { root?: string; plugins?: unknown; test?: { root?: string } }
  const base = resolve(dirname(configFile), config.root ?? '.')
  const root = config.test?.root === undefined ? base : resolve(base, config.test.root)
  return { options: findPluginOptions(await flattenPlugins(config.plugins)), root }
}

async function flattenPlugins(plugins: unknown): Promise<unknown> {
  if (Array.isArray(plugins)) return Promise.all(plugins.map(flattenPlugins))
  return await plugins
}

export async function projectSettings(cwd: string, flags: ProjectFlags, env: NodeJS.ProcessEnv = process.env): Promise<ProjectSettings> {
  const configFile = findConfigFile(cwd, flags.config)
  const fromConfig = configFile === undefined ? { options: undefined, root: cwd } : await readPluginOptions(configFile)
  if (fromConfig.options === undefined && flags.tenant === undefined) {
    throw new ConfigNotFoundError(
      configFile === undefined ? `no Vitest config was found in ${cwd}, and no --tenant was given` : `${configFile} has no digline() plugin, and no --tenant was given`,
      'Run from the project root, pass --config path/to/vitest.config.ts, or pass --tenant T (and --store DIR).',
    )
  }
  const merged: DiglineOptions = {
    ...(fromConfig.options ?? {}),
    ...(flags.tenant === undefined ? {} : { tenant: flags.tenant }),
    ...(flags.store === undefined ? {} : { store: storeLocator(flags.store, cwd, {}) }),
  } as DiglineOptions
  // --store is said for this command alone, so it wins over DIGLINE_STORE, which wins over the config.
  const optionsEnv = flags.store === undefined ? env : { ...env, DIGLINE_STORE: undefined }
  return { ...resolveOptions(merged, fromConfig.root, optionsEnv), root: fromConfig.root, configFile }
}
