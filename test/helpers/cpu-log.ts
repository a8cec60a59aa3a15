// DIGLINE_TEST_CPU_LOG=FILE (ADR 0390): one line per test file with the CPU seconds it cost, its own
// worker's and those of every process it started and waited for (user + sys, read from
// /proc/self/stat), so a file's cost compares before and after a change however loaded the machine is.
import { appendFileSync, readFileSync } from 'node:fs'
import { relative } from 'node:path'
import { afterAll, expect } from 'vitest'

const TICKS_PER_SECOND = 100

/** utime + stime + cutime + cstime of this process, in seconds. */
function cpuSeconds(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  // fields[0] is the state (field 3 of proc(5)), so utime (field 14) is fields[11]
  return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) / TICKS_PER_SECOND
}

// read when the setup file loads, before the test file is imported
const started = cpuSeconds()
const startedAt = performance.now()
afterAll(() => {
  const file = relative(process.cwd(), expect.getState().testPath ?? '?')
  const cpu = cpuSeconds() - started
  const wall = (performance.now() - startedAt) / 1000
  appendFileSync(process.env.DIGLINE_TEST_CPU_LOG!, `${file}\t${cpu.toFixed(2)}\t${wall.toFixed(1)}\n`)
})
