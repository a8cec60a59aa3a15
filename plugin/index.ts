// digline(): the Vitest plugin. It validates the options, hands them to every worker, and adds the
// reporter that owns the exit code.
import type { Plugin } from 'vite'
import type { Vitest } from 'vitest/node'
import { InternalError, isDiglineError } from '../src/errors/base.js'
import { resolveOptions, type DiglineOptions, type FamilyWise } from '../src/host/index.js'
import { DiglineReporter } from './reporter.js'
import { AnnotationFiler } from './annotation-filer.js'
import { HeldVerdicts } from './held-verdicts.js'
import { startModelSlots } from './model-slots.js'
import { exitTwoWhenStopped } from './launch-stop.js'
import type { ProvidedDigline } from './provided.js'
import 'vitest/config'
import { fileURLToPath } from 'node:url'
import { isAbsolute, join, resolve } from 'node:path'
import { readdirSync, rmSync } from 'node:fs'
import { makeTempDir } from '../src/suite/temp-dir.js'
import { TempDirUnusableError } from '../src/suite/errors.js'

export type { DiglineOptions } from '../src/host/index.js'
export { DiglineReporter } from './reporter.js'

const withReporter = new WeakSet<Vitest>()
const claimDirs = new WeakMap<Vitest, string>()

/** The directory where this launch's suites claim their names (plugin/suite-name-claim.ts). */
function claimDir(vitest: Vitest): string {
  let dir = claimDirs.get(vitest)
  if (dir === undefined) {
    const made = makeTempDir('digline-launch-')
    dir = made
    claimDirs.set(vitest, made)
    vitest.onClose(() => rmSync(made, { recursive: true, force: true }))
    // a rerun (watch mode) collects every file again
    vitest.config.reporters.push({ onTestRunStart: () => readdirSync(made).forEach((entry) => rmSync(join(made, entry), { recursive: true, force: true })) })
  }
  return dir
}

/** The plugin's options, where the CLI finds the tenant and the store. */
export interface DiglinePluginApi {
  digline: { options: DiglineOptions }
}

export function digline(options: DiglineOptions): Plugin {
  return {
    name: 'digline',
    api: { digline: { options } } satisfies DiglinePluginApi,
    config(config) {
      // The plugin's setup file clears the hook list; the user's hook files register after it.
      // Without hook files there is no setup file: each one costs a worker a fetch from the main
      // process before its first test file (ADR 0567).
      const root = resolve(config.root ?? process.cwd(), config.test?.root ?? '.')
      const hooks = (options?.hooks ?? []).map((h) => (isAbsolute(h) ? h : resolve(root, h)))
      if (hooks.length === 0) return undefined
      return { test: { setupFiles: [fileURLToPath(new URL('./worker-setup.js', import.meta.url)), ...hooks] } }
    },
    configureVitest({ vitest, project }) {
      const root = project.config.root
      let provided: ProvidedDigline
      let familyWise: FamilyWise = 'holm'
      let launchRefusal: TempDirUnusableError | undefined
      try {
        const { tenant, environment, storeRoot, familyWise: method } = resolveOptions(options, root)
        familyWise = method
        provided = {
          tenant,
          environment,
          storeRoot,
          projectRoot: root,
          claims: claimDir(vitest),
          ...(vitest.config.watch ? { watch: true } : {}),
          ...(vitest.config.ui ? { ui: true } : {}),
        }
      } catch (error) {
        // Vite cannot load a suite file either without its temporary directory: the launch itself is refused.
        if (error instanceof TempDirUnusableError) launchRefusal = error
        // resolveOptions refuses bad options by name; anything else it throws is a defect of digline
        const refusal = isDiglineError(error)
          ? error
          : new InternalError(`resolving the digline() options failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
        provided = { refusal: refusal.toData() }
      }
      project.provide('digline', provided)
      if (!withReporter.has(vitest)) {
        withReporter.add(vitest)
        // first, so the reporters after it see a case's annotations when its result arrives, and a
        // verdict test the launch-wide decision holds as passed when the run ends
        // a launch refused for its temporary directory has none to name its workers in (ADR 0386)
        if (launchRefusal === undefined) exitTwoWhenStopped(claimDir(vitest))
        vitest.config.reporters.unshift(new AnnotationFiler(), new HeldVerdicts(familyWise))
        vitest.config.reporters.push(new DiglineReporter(familyWise, launchRefusal))
        return startModelSlots(vitest)
      }
    },
  }
}
