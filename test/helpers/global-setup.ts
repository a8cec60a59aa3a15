import { rmSync } from 'node:fs'
import type { TestProject } from 'vitest/node'
import { installPackedDigline } from './installed-package.js'

declare module 'vitest' {
  interface ProvidedContext {
    installRoot: string
  }
}

export default function setup(project: TestProject) {
  const root = installPackedDigline()
  project.provide('installRoot', root)
  return () => {
    if (!process.env.DIGLINE_KEEP_E2E) rmSync(root, { recursive: true, force: true })
  }
}
