// The provider SDKs are optional peer dependencies: checked when an adapter is created (so a missing
// one is refused before any call); each adapter imports its SDK itself at the first call.
import { createRequire } from 'node:module'
import { MissingPeerDependencyError } from './errors.js'

const INSTALL = { openai: 'npm install -D openai@6', ai: 'npm install -D ai@6 (with a provider such as @ai-sdk/openai@3)' } as const

export type Peer = keyof typeof INSTALL

export function requirePeer(name: Peer, owner: string): void {
  try {
    createRequire(import.meta.url).resolve(name)
  } catch (error) {
    if ((error as { code?: string }).code !== 'MODULE_NOT_FOUND') return
    throw new MissingPeerDependencyError(`${owner} needs the package "${name}", which is not installed`, `Run \`${INSTALL[name]}\` in the project.`)
  }
}
