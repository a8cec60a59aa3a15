// digline(): the Vitest plugin. It validates the options, hands them to every worker, and adds the
// reporter that owns the exit code.
import type { Plugin } from 'vite'
import type { Vitest } from 'vitest/node'
import { isDiglineError, InvalidOptionsError } from '../src/errors.js'
import { resolveOptions, type DiglineOptions } from '../src/host/plugin-options.js'
import { DiglineReporter } from './reporter.js'
import type { ProvidedDigline } from './provided.js'
import 'vitest/config'

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
    configureVitest({ vitest, project }) {
      const root = project.config.root
      let provided: ProvidedDigline
      try {
        provided = { ...resolveOptions(options, root), projectRoot: root }
      } catch (error) {
        const refusal = isDiglineError(error) ? error : new InvalidOptionsError(String(error), 'Fix the digline() options in vitest.config.ts.')
        provided = { refusal: refusal.toData() }
      }
      project.provide('digline', provided)
      if (!withReporter.has(vitest)) {
        withReporter.add(vitest)
        vitest.config.reporters.push(new DiglineReporter())
      }
    },
  }
}
