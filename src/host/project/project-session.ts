// A long-lived front end's project (`digline mcp`): the settings are read again at every use (the
// Vitest config may change while the server runs), but the store they name is opened once and kept,
// so the team store holds one connection pool for the server's whole life (ADR 0161). A store the
// settings stop naming stays open until the session closes: a call that began with it may still use it.
import type { Store } from '../../store/contract.js'
import type { OpenedProject } from './open-project.js'
import type { ProjectFlags } from './project-settings.js'

export interface ProjectSession {
  /** The settings as they are now, and the one open store of their locator. */
  project(): Promise<OpenedProject>
  /** Closes every store the session opened (idempotent). */
  close(): Promise<void>
}

export function openProjectSession(cwd: string, flags: ProjectFlags, env: NodeJS.ProcessEnv = process.env): ProjectSession {
  const stores = new Map<string, Store>()
  return {
    async project() {
      // imported at the first use, so that the host's door stays light (ADR 0420)
      const [{ projectSettings }, { openStore }] = await Promise.all([import('./project-settings.js'), import('../../store/open-store.js')])
      const settings = await projectSettings(cwd, flags, env)
      let store = stores.get(settings.storeRoot)
      if (store === undefined) {
        store = openStore({ store: settings.storeRoot })
        stores.set(settings.storeRoot, store)
      }
      return { settings, store }
    },
    async close() {
      await Promise.all([...stores.values()].map((store) => store.close()))
    },
  }
}
