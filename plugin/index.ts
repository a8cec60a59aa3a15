// digline(): the Vitest plugin. It validates the options, hands them to every worker, and adds the
// reporter that owns the exit code.
import type { Plugin } from 'vite'
import type { Vitest } from 'vitest/node'
import { InternalError, isDiglineError } from '../src/errors.js'
import { resolveOptions, type DiglineOptions } from '../src/host/plugin-options.js'
import { DiglineReporter } from './reporter.js'
import { startModelSlots } from './model-slots.js'
import type { ProvidedDigline } from './provided.js'
import 'vitest/config'
import { fileURLToPath } from 'node:url'
import { isAbsolute, resolve } from 'node:path'

export type { DiglineOptions } from '../src/host/plugin-options.js'
export { DiglineReporter } from './reporter.js'

const withReporter = new WeakSet<Vitest>()

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
      const root = resolve(config.root ?? process.cwd(), config.test?.root ?? '.')
      const hooks = (options?.hooks ?? []).map((h) => (isAbsolute(h) ? h : resolve(root, h)))
      return { test: { setupFiles: [fileURLToPath(new URL('./worker-setup.js', import.meta.url)), ...hooks] } }
    },
    configureVitest({ vitest, project }) {
      const root = project.config.root
      let provided: ProvidedDigline
      try {
        const { tenant, environment, storeRoot } = resolveOptions(options, root)
        provided = { tenant, environment, storeRoot, projectRoot: root }
      } catch (error) {
        // resolveOptions refuses bad options by name; anything else it throws is a defect of digline
        const refusal = isDiglineError(error) ? error : new InternalError(`resolving the digline() options failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
        provided = { refusal: refusal.toData() }
      }
      project.provide('digline', provided)
      if (!withReporter.has(vitest)) {
        withReporter.add(vitest)
        vitest.config.reporters.push(new DiglineReporter())
        return startModelSlots(vitest)
      }
    },
  }
}
