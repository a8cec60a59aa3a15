// What a disk holds after a power loss, modelled after ALICE (Pillai et al., "All File Systems Are
// Not Created Equal", OSDI 2014) at its weakest persistence model that still respects fsync:
//
//   - A file's bytes are durable up to its last fsync. Bytes written after it are lost, or persist
//     as a prefix of what was appended (a torn append), possibly as zeros (the size reached the
//     disk, the data did not: ext4 data=writeback, and what ALICE calls a non-atomic append).
//   - A directory entry (create, mkdir, rename, link, unlink, rmdir) is durable only after an fsync of
//     the directory holding it. Without one, the operation may be undone; the operations of one
//     directory persist in order (a prefix of them), as a journaling file system commits them.
//   - fsync of a file says nothing about its directory entry, and fsync of a directory says nothing
//     about its files' bytes.
//
// The model watches one directory tree (the scope) through the events FaultFs reports after each
// real operation succeeded, then rewrites the real tree to a state the kernel could have left.
// Everything under the scope when the model is captured counts as durable.
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { basename, dirname, join, relative, isAbsolute } from 'node:path'

type DirOp = { op: 'link'; name: string; id: number } | { op: 'unlink'; name: string }

interface FileNode {
  kind: 'file'
  id: number
  durable: Buffer
  /** Where the file is now, to read its unsynced bytes; undefined once unlinked. */
  path: string | undefined
}
interface DirNode {
  kind: 'dir'
  id: number
  durable: Map<string, number>
  /** Entry operations since the directory's last fsync, in order. */
  log: DirOp[]
}
interface LinkNode {
  kind: 'symlink'
  id: number
  target: string
}
type Node = FileNode | DirNode | LinkNode

export type ImageNode = { kind: 'file'; data: Buffer } | { kind: 'dir'; entries: Map<string, ImageNode> } | { kind: 'symlink'; target: string }

/** lose-all: every unsynced byte and entry operation is lost. torn: a random prefix of each persists. */
export type PowerLossMode = 'lose-all' | 'torn'

export interface PowerLossReport {
  /** Directory entry operations that did not survive. */
  entryOpsUndone: number
  /** Files whose unsynced bytes were dropped or torn. */
  filesTorn: number
  /** Unsynced bytes that did not reach the disk (zero-filled bytes count as lost). */
  bytesLost: number
}

/** A generator of its own for each path; the atomic writer's temp names lose their pid and random part. */
function randomFor(seed: number, path: string): () => number {
  let state = seed >>> 0 || 1
  for (const ch of path.replace(/\.\d+\.[0-9a-f]+\.tmp$/, '.tmp')) state = Math.imul(state ^ ch.charCodeAt(0), 0x01000193) >>> 0 || 1
  return () => {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    return (state >>> 0) / 2 ** 32
  }
}

export class DurabilityModel {
  private readonly nodes = new Map<number, Node>()
  /** Real inode → node, for the generation of the inode that is live now (inodes get reused). */
  private readonly byIno = new Map<number, number>()
  private nextId = 1
  private readonly rootId: number

  private constructor(readonly scope: string) {
    this.rootId = this.adopt(scope).id
  }

  /** Everything under the scope now is taken as durable. */
  static capture(scope: string): DurabilityModel {
    return new DurabilityModel(scope)
  }

  tracks(path: string): boolean {
    const rel = relative(this.scope, path)
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)
  }

  created(path: string): void {
    const parent = this.parentOf(path)
    if (parent === undefined) return
    const stats = lstatSync(path)
    const id = this.nextId++
    const node: Node = stats.isDirectory()
      ? { kind: 'dir', id, durable: new Map(), log: [] }
      : stats.isSymbolicLink()
        ? { kind: 'symlink', id, target: readlinkSync(path) }
        : { kind: 'file', id, durable: Buffer.alloc(0), path }
    this.nodes.set(id, node)
    this.byIno.set(stats.ino, id)
    parent.log.push({ op: 'link', name: basename(path), id })
  }

  /** Call with the inode of `from`, taken before the rename. */
  renamed(from: string, to: string, ino: number): void {
    const id = this.byIno.get(ino)
    const fromParent = this.parentOf(from)
    const toParent = this.parentOf(to)
    fromParent?.log.push({ op: 'unlink', name: basename(from) })
    if (id === undefined) return
    toParent?.log.push({ op: 'link', name: basename(to), id })
    const node = this.nodes.get(id)
    if (node?.kind === 'file') node.path = toParent === undefined ? undefined : to
  }

  /** Call with the inode of the file `to` became a second name of. */
  linked(to: string, ino: number): void {
    const id = this.byIno.get(ino)
    const toParent = this.parentOf(to)
    if (id === undefined || toParent === undefined) return
    toParent.log.push({ op: 'link', name: basename(to), id })
    const node = this.nodes.get(id)
    if (node?.kind === 'file') node.path = to
  }

  /** Call with the inode of the entry, taken before it was removed. */
  removed(path: string, ino: number): void {
    this.parentOf(path)?.log.push({ op: 'unlink', name: basename(path) })
    const node = this.nodes.get(this.byIno.get(ino) ?? -1)
    if (node?.kind === 'file' && node.path === path) node.path = undefined
  }

  fileSynced(ino: number, bytes: Buffer): void {
    const node = this.nodes.get(this.byIno.get(ino) ?? -1)
    if (node?.kind === 'file') node.durable = Buffer.from(bytes)
  }

  dirSynced(path: string): void {
    const node = this.nodeAt(path)
    if (node?.kind !== 'dir') return
    node.durable = this.entriesNow(path)
    node.log = []
  }

  /**
   * The tree the disk could hold after a power loss now. The torn choices are drawn per path (temp
   * files' random suffixes left out), so one seed gives one outcome whatever the temp names were.
   */
  image(mode: PowerLossMode, seed: number): { root: ImageNode; report: PowerLossReport } {
    const report: PowerLossReport = { entryOpsUndone: 0, filesTorn: 0, bytesLost: 0 }
    const build = (id: number, path: string, depth: number): ImageNode => {
      const node = this.nodes.get(id)!
      const random = randomFor(seed, path)
      if (node.kind === 'symlink') return { kind: 'symlink', target: node.target }
      if (node.kind === 'file') return { kind: 'file', data: this.fileImage(node, mode, random, report) }
      if (depth > 64) throw new Error('the durability model found a directory cycle')
      const entries = new Map(node.durable)
      const kept = mode === 'lose-all' ? 0 : Math.floor(random() * (node.log.length + 1))
      report.entryOpsUndone += node.log.length - kept
      for (const step of node.log.slice(0, kept)) {
        if (step.op === 'link') entries.set(step.name, step.id)
        else entries.delete(step.name)
      }
      const out = new Map<string, ImageNode>()
      for (const [name, child] of [...entries].sort(([a], [b]) => (a < b ? -1 : 1))) out.set(name, build(child, `${path}/${name}`, depth + 1))
      return { kind: 'dir', entries: out }
    }
    return { root: build(this.rootId, '', 0), report }
  }

  /** Rewrites the real scope to the image (the scope directory itself stays). */
  restore(root: ImageNode): void {
    if (root.kind !== 'dir') throw new Error('the scope of a durability model is a directory')
    for (const name of readdirSync(this.scope)) rmSync(join(this.scope, name), { recursive: true, force: true })
    const write = (path: string, node: ImageNode): void => {
      if (node.kind === 'file') writeFileSync(path, node.data)
      else if (node.kind === 'symlink') symlinkSync(node.target, path)
      else {
        mkdirSync(path)
        for (const [name, child] of node.entries) write(join(path, name), child)
      }
    }
    for (const [name, child] of root.entries) write(join(this.scope, name), child)
  }

  private fileImage(node: FileNode, mode: PowerLossMode, random: () => number, report: PowerLossReport): Buffer {
    const now = this.currentBytes(node)
    if (now === undefined || now.equals(node.durable)) return node.durable
    report.filesTorn += 1
    const appended = now.length > node.durable.length && now.subarray(0, node.durable.length).equals(node.durable)
    if (mode === 'lose-all' || !appended) {
      const keepNew = mode === 'torn' && random() < 0.5
      report.bytesLost += keepNew ? 0 : Math.abs(now.length - node.durable.length)
      return keepNew ? now : node.durable
    }
    const extra = now.subarray(node.durable.length)
    const cut = Math.floor(random() * (extra.length + 1))
    const garbage = random() < 0.25
    report.bytesLost += extra.length - (garbage ? 0 : cut)
    return Buffer.concat([node.durable, garbage ? Buffer.alloc(cut) : extra.subarray(0, cut)])
  }

  private currentBytes(node: FileNode): Buffer | undefined {
    if (node.path === undefined) return undefined
    try {
      if (this.byIno.get(lstatSync(node.path).ino) !== node.id) return undefined
      return readFileSync(node.path)
    } catch {
      return undefined
    }
  }

  private adopt(path: string): Node {
    const stats = lstatSync(path)
    const id = this.nextId++
    let node: Node
    if (stats.isSymbolicLink()) node = { kind: 'symlink', id, target: readlinkSync(path) }
    else if (stats.isDirectory()) {
      node = { kind: 'dir', id, durable: new Map(), log: [] }
      this.nodes.set(id, node)
      this.byIno.set(stats.ino, id)
      node.durable = this.entriesNow(path)
      return node
    } else node = { kind: 'file', id, durable: readFileSync(path), path }
    this.nodes.set(id, node)
    this.byIno.set(stats.ino, id)
    return node
  }

  private entriesNow(path: string): Map<string, number> {
    const entries = new Map<string, number>()
    for (const name of readdirSync(path)) {
      const child = join(path, name)
      const known = this.byIno.get(lstatSync(child).ino)
      entries.set(name, known ?? this.adopt(child).id)
    }
    return entries
  }

  private nodeAt(path: string): Node | undefined {
    try {
      return this.nodes.get(this.byIno.get(lstatSync(path).ino) ?? -1)
    } catch {
      return undefined
    }
  }

  private parentOf(path: string): DirNode | undefined {
    if (!this.tracks(path)) return undefined
    const node = this.nodeAt(dirname(path))
    return node?.kind === 'dir' ? node : undefined
  }
}
