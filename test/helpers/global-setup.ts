import { rmSync } from 'node:fs'
import type { TestProject } from 'vitest/node'
import { installPackedDigline } from './installed-package.js'

declare module 'vitest' {
  interface ProvidedContext {
    installRoot: string
  }
}

// Each Vitest project runs this setup; they share one install, removed when the last one tears down.
const shared = globalThis as typeof globalThis & { diglineInstall?: { root: string; users: number } }

export default function setup(project: TestProject) {
  shared.diglineInstall ??= { root: installPackedDigline(), users: 0 }
  const install = shared.diglineInstall
  install.users++
  project.provide('installRoot', install.root)
  return () => {
    if (--install.users > 0) return
    delete shared.diglineInstall
    if (!process.env.DIGLINE_KEEP_E2E) rmSync(install.root, { recursive: true, force: true })
  }
}
