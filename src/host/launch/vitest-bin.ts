import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { UsageError } from '../errors.js'

/** The vitest bin the project uses (its own install first, then the one beside digline). */
export function vitestBin(cwd: string): string {
  for (const base of [resolve(cwd, 'package.json'), import.meta.url]) {
    try {
      return join(dirname(createRequire(base).resolve('vitest/package.json')), 'vitest.mjs')
    } catch {
      // try the next place
    }
  }
  throw new UsageError('vitest is not installed here', 'Run `npm install -D vitest`, then the command again.')
}
