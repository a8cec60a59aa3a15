// The machine's own floor: how long one durable append takes on the disk the store lives on. A
// journal record is one write and one fsync, so per-case overhead is judged against this figure.
import { openSync, writeSync, fsyncSync, closeSync, mkdtempSync, rmSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { join } from 'node:path'
import { median } from './stats.js'

const LINE = Buffer.from(
  `${'0'.repeat(8)} ${JSON.stringify({ kind: 'case', cause: null, case: { case_id: 'c00042', verdict: 'pass', score: 1, passed_samples: 1, reason: null, error: null, samples: [{ pass: true, score: 1, scorers: [{ name: 'exact', pass: true, score: 1, reason: null }] }] } })}\n`,
)

/**
 * Latency (ms) of one durable append of a journal-sized record, via node:fs/promises as the journal
 * does: the median fsync, and the mean of write + fsync over a sustained sequence. This disk's
 * latency is heavy-tailed (a median near 0.1 ms, stalls of several ms when neighbours write), and
 * a per-case overhead is a mean over many cases, so the mean of a sustained sequence is the floor it
 * is held against; the median is shown beside it. The raw fsyncSync median is the kernel's share.
 */
export async function measureFsync(dir, iterations = 400) {
  const tmp = mkdtempSync(join(dir, 'fsync-'))
  try {
    const handle = await open(join(tmp, 'leg.jsonl'), 'a')
    const fsyncMs = []
    const appendMs = []
    for (let i = 0; i < iterations + 20; i++) {
      const t0 = process.hrtime.bigint()
      await handle.write(LINE)
      const t1 = process.hrtime.bigint()
      await handle.sync()
      const t2 = process.hrtime.bigint()
      if (i >= 20) {
        fsyncMs.push(Number(t2 - t1) / 1e6)
        appendMs.push(Number(t2 - t0) / 1e6)
      }
    }
    await handle.close()
    const fd = openSync(join(tmp, 'raw.jsonl'), 'a')
    const rawMs = []
    for (let i = 0; i < iterations + 20; i++) {
      writeSync(fd, LINE)
      const t = process.hrtime.bigint()
      fsyncSync(fd)
      if (i >= 20) rawMs.push(Number(process.hrtime.bigint() - t) / 1e6)
    }
    closeSync(fd)
    return {
      fsyncMs: median(fsyncMs),
      appendAndFsyncMs: median(appendMs),
      appendAndFsyncMeanMs: appendMs.reduce((a, b) => a + b, 0) / appendMs.length,
      rawFsyncSyncMs: median(rawMs),
      recordBytes: LINE.length,
      iterations,
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}
