// The bench counts a launch's CPU over its whole process tree, a worker that starts and ends between
// two of the sampler's scans included (a plain 10-test launch's worker does).
import { expect, test } from 'vitest'
import { runNode } from '../../../bench/lib/process.js'

// The child starts a grandchild that spins for 80 ms of CPU and exits, then exits itself: on a quiet
// machine both are gone before the sampler's second scan of the tree, 250 ms after the spawn, and
// the sampled count alone read 40 ms of the tree's 190.
const CHILD = `
const { spawnSync } = require('node:child_process')
const spin = "const t = process.cpuUsage(); const spent = () => { const d = process.cpuUsage(t); return d.user + d.system }; while (spent() < 80000); const u = process.cpuUsage(); console.log((u.user + u.system) / 1000)"
const grandchild = spawnSync(process.execPath, ['-e', spin], { encoding: 'utf8' })
process.stdout.write(grandchild.stdout)
`

test("a launch's CPU includes a grandchild that the sampler never saw", async () => {
  const run = await runNode(['-e', CHILD])
  expect(run.code).toBe(0)
  const grandchildCpuMs = Number(run.stdout.trim())
  expect(grandchildCpuMs).toBeGreaterThanOrEqual(80)
  // Counted in 10 ms ticks, so up to one tick short of the grandchild's own count.
  expect(run.memory.reapedCpuMs).toBeGreaterThanOrEqual(grandchildCpuMs - 10)
  expect(run.memory.cpuMs).toBeGreaterThanOrEqual(run.memory.reapedCpuMs)
  expect(run.memory.cpuMs).toBeGreaterThanOrEqual(grandchildCpuMs - 10)
})
