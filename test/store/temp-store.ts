// A temp directory holding a project with a store at project/.digline and, beside it, an `outside`
// directory with a sentinel file: where a path that escaped the store would land.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { FileResultStore } from '../../src/store/file/store.js'
import type { FsLayer } from '../../src/store/file/fs-layer.js'
import { snapshotTree, type TreeEntry } from './tree-snapshot.js'

export interface TempStore {
  /** The temp directory holding everything below. */
  dir: string
  root: string
  outside: string
  sentinel: string
  store: FileResultStore
  /** Raw bytes where the store keeps the run named fileKey (created with its directories). */
  plant(tenant: string, suite: string, fileKey: string, bytes: string | Uint8Array): string
  snapshot(): TreeEntry[]
  cleanup(): void
}

export const SENTINEL_TEXT = 'outside the store; never written\n'

export function makeTempStore(options: { fs?: FsLayer; parent?: string } = {}): TempStore {
  const dir = realpathSync(mkdtempSync(join(options.parent ?? tmpdir(), 'digline-store-')))
  const root = join(dir, 'project', '.digline')
  const outside = join(dir, 'outside')
  const sentinel = join(outside, 'sentinel.txt')
  mkdirSync(outside)
  writeFileSync(sentinel, SENTINEL_TEXT)
  const store = new FileResultStore(options.fs === undefined ? { root } : { root, fs: options.fs })
  return {
    dir,
    root,
    outside,
    sentinel,
    store,
    plant(tenant, suite, fileKey, bytes) {
      const file = join(root, tenant, 'runs', suite, `${fileKey}.json`)
      mkdirSync(dirname(file), { recursive: true })
      writeFileSync(file, bytes)
      return file
    },
    snapshot: () => snapshotTree(dir),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  }
}
