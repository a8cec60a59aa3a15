import { rmSync } from 'node:fs'
import type { TestProject } from 'vitest/node'
import { startRecordedInstall } from './installed-package.js'

declare module 'vitest' {
  interface ProvidedContext {
    installRoot: string
  }
}

// Each Vitest project runs this setup; they share one install, removed when the last one tears down.
// The install runs while the first files run: a file that needs it waits in test/helpers/project.ts.
const shared = globalThis as typeof globalThis & { diglineInstall?: { root: string; settled: Promise<void>; stop: () => void; users: number } }

export default function setup(project: TestProject) {
  shared.diglineInstall ??= { ...startRecordedInstall(), users: 0 }
  const install = shared.diglineInstall
  install.users++
  project.provide('installRoot', install.root)
  return async () => {
    if (--install.users > 0) return
    delete shared.diglineInstall
    // when no file needed it (a run of unit tests alone), npm may still be writing there
    install.stop()
    await install.settled
    if (!process.env.DIGLINE_KEEP_E2E) rmSync(install.root, { recursive: true, force: true })
  }
}
