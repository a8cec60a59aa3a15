// Opening a project for a front end: its settings (tenant, environment, store) from the Vitest config
// and the flags, and the store they name, through the one store factory.
import type { Store } from '../../store/contract.js'
import { openStore } from '../../store/open-store.js'
import { projectSettings, type ProjectFlags, type ProjectSettings } from './project-settings.js'

export interface OpenedProject {
  settings: ProjectSettings
  store: Store
}

export async function openProject(cwd: string, flags: ProjectFlags, env: NodeJS.ProcessEnv = process.env): Promise<OpenedProject> {
  const settings = await projectSettings(cwd, flags, env)
  return { settings, store: openStore({ store: settings.storeRoot }) }
}
