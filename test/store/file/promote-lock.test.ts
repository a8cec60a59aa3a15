// The file store's promotion lock names its holder, so a crashed promoter never blocks forever: a
// lock whose process is gone, or whose pid now belongs to another process (another start time), is
// broken by the next promotion; a live holder is waited for, then named in the refusal.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PromotionInProgressError } from '../../../src/store/file/errors.js'
import { promoteRun } from '../../../src/host/lifecycle/promote.js'
import { nodeFsLayer } from '../../../src/store/file/fs-layer.js'
import { PromoteLock } from '../../../src/store/file/promote-lock.js'
import { processStartTime as processStart } from '../../../src/store/live-writer.js'
import { keyOf, makeRun } from '../../helpers/make-run.js'
import { refusalOf } from '../contract/harness.js'
import { makeTempStore, type TempStore } from '../temp-store.js'

let temp: TempStore
let children: ChildProcess[] = []

function sleeper(): ChildProcess {
  const child = spawn('sleep', ['60'], { stdio: 'ignore' })
  children.push(child)
  return child
}

function plantLock(holder: { pid: number; start: number | null }): string {
  const dir = join(temp.root, 'acme')
  mkdirSync(dir, { recursive: true })
  const file = join(dir, '.promote.lock')
  const boot = existsSync('/proc/sys/kernel/random/boot_id') ? readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() : null
  writeFileSync(file, `${JSON.stringify({ host: hostname(), boot, pid: holder.pid, start: holder.start, since: '2026-12-01T09:00:00.000Z', token: 'abc123' })}\n`)
  return file
}

async function promote() {
  const run = makeRun()
  await temp.store.writeRun(run)
  return promoteRun({ store: temp.store, tenant: 'acme', suite: 'capitals', key: keyOf(run), replacing: undefined, currentConfigHash: async () => run.config_hash })
}

beforeEach(() => {
  temp = makeTempStore()
})
afterEach(() => {
  for (const child of children) child.kill('SIGKILL')
  children = []
  temp.cleanup()
})

describe('a promotion lock left behind', () => {
  it('by a process killed with SIGKILL is broken by the next promotion, which lands and leaves no lock', async () => {
    const child = sleeper()
    await new Promise((r) => setTimeout(r, 50))
    const start = processStart(child.pid!)
    expect(start).not.toBeNull()
    child.kill('SIGKILL')
    await new Promise((resolve) => child.once('exit', resolve))
    plantLock({ pid: child.pid!, start })
    expect((await promote()).outcome).toBe('promoted')
    expect(readdirSync(join(temp.root, 'acme')).sort()).toEqual(['baselines', 'register.jsonl', 'runs'])
  })

  it('naming a live pid with another start time (a recycled pid) is broken too', async () => {
    const child = sleeper()
    await new Promise((r) => setTimeout(r, 50))
    plantLock({ pid: child.pid!, start: processStart(child.pid!)! - 1 })
    expect((await promote()).outcome).toBe('promoted')
    expect(existsSync(join(temp.root, 'acme', '.promote.lock'))).toBe(false)
  })

  it('by a live process is waited for, then refused naming the holder; nothing is written', async () => {
    const child = sleeper()
    await new Promise((r) => setTimeout(r, 50))
    const file = plantLock({ pid: child.pid!, start: processStart(child.pid!) })
    const lock = new PromoteLock(nodeFsLayer, file, 300)
    let ran = false
    const step = async () => {
      ran = true
    }
    const refusal = await refusalOf(lock.holding(step), PromotionInProgressError)
    expect(ran).toBe(false)
    expect(refusal.message).toContain(`process ${child.pid} on ${hostname()}`)
    expect(refusal.exitCode).toBe(64)
    expect(existsSync(file)).toBe(true)
    expect(readdirSync(join(temp.root, 'acme'))).toEqual(['.promote.lock'])
  })
})
