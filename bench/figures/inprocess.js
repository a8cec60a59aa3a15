// Figures 3, 4, 6 and 7: library calls timed in a child process of their own (node --expose-gc),
// so neither the benchmark's own heap nor an earlier figure's garbage is in the measurement.
import { join } from 'node:path'
import { measureFsync } from '../lib/floor.js'
import { runJsonChild } from '../lib/process.js'
import { fmt, median, pairedRatio } from '../lib/stats.js'

const child = (name) => join(import.meta.dirname, name)
const NODE_ARGS = ['--expose-gc', '--max-old-space-size=8192']

export async function resumePlanning({ install, quick, tmp, log }) {
  const records = quick ? 20_000 : 100_000
  log(`resume planning: writing a journal of ${fmt.int(records)} case records with FileJournal`)
  const floor = await measureFsync(tmp, 1000)
  const r = await runJsonChild(child('resume-child.js'), { pkg: install.pkg, dir: tmp, records, reps: quick ? 5 : 7 }, { nodeArgs: NODE_ARGS })
  const ratio = pairedRatio(r.pendingMs, r.bareMs)
  const floorRatio = pairedRatio(r.floorMs, r.bareMs)
  const overFloor = pairedRatio(r.pendingMs, r.floorMs)
  return {
    rows: [
      {
        figure: `3. resume planning: ${fmt.int(records)} case records (${fmt.mib(r.legBytes)}): pending() ÷ bare JSON.parse (medians of ${r.pendingMs.length} calls after the first)`,
        value: `${fmt.x3(ratio)} (${fmt.ms(median(r.pendingMs))} vs ${fmt.ms(median(r.bareMs))})`,
        goal: '≤ 1.5×',
        pass: ratio <= 1.5,
      },
      {
        figure: "3. resume planning's floor (the leg read once, every line's CRC-32, parsed, every result held by id) ÷ bare JSON.parse; pending() ÷ that floor",
        value: `${fmt.x3(floorRatio)} (${fmt.ms(median(r.floorMs))}); ${fmt.x3(overFloor)}`,
        goal: '—',
        pass: null,
      },
      {
        figure: '3. the first call of each in the process, its code not yet compiled (as a resume makes it), not in the medians: pending() ÷ bare JSON.parse',
        value: `${fmt.x3(r.first.pendingMs / r.first.bareMs)} (${fmt.ms(r.first.pendingMs)} vs ${fmt.ms(r.first.bareMs)}; the floor ${fmt.ms(r.first.floorMs)})`,
        goal: '—',
        pass: null,
      },
      {
        figure: '3. journal append (encode, write, fsync) per record, for reference',
        value: `${fmt.ms(r.appendMsPerRecord)} (write + fsync on this disk: mean ${fmt.ms(floor.appendAndFsyncMeanMs)})`,
        goal: '—',
        pass: null,
      },
    ],
    raw: { ...r, floor, ratio, floorRatio, overFloor },
  }
}

export async function tenantScan({ install, quick, tmp, log }) {
  const docs = quick ? 1000 : 10_000
  log(`scan and delete: writing ${fmt.int(docs)} run documents over 20 suites (10% with ~1 MB of answers)`)
  const r = await runJsonChild(child('tenant-child.js'), { pkg: install.pkg, dir: tmp, docs, suites: 20, reps: 5 }, { nodeArgs: NODE_ARGS })
  const KIB64 = 64 * 1024
  const guardRatio = pairedRatio(r.list.ms, r.list.unguardedMs)
  // The delete's goal is 2 s at 10,000 documents (full mode); at quick mode's 1,000 its fixed cost
  // (records, fsyncs, the baseline) weighs too much to scale the goal down, so only size-independence is held.
  const deleteGoalMs = docs >= 10_000 ? 2000 : Infinity
  const rows = [
    {
      figure: `4. listRuns of a suite: ${fmt.int(r.list.docs)} documents (of ${fmt.int(docs)} in the tenant, ${fmt.mib(r.tenant.bytes)}; large ones ${fmt.mib(r.tenant.meanLargeBytes)})`,
      value: `${fmt.ms(median(r.list.ms))} (${fmt.ms(median(r.list.ms) / r.list.docs)} per document, warm cache)`,
      goal: '—',
      pass: r.list.refused === 0 ? null : false,
    },
    {
      figure: `4. listRuns of those ${fmt.int(r.list.docs)} documents: with the symlink guard ÷ without it (alternating, ${r.list.unguardedMs.length} pairs after 3 uncounted)`,
      value: `${fmt.x3(guardRatio)} (${fmt.ms(median(r.list.ms))} vs ${fmt.ms(median(r.list.unguardedMs))})`,
      goal: '≤ 1.2×',
      pass: guardRatio <= 1.2,
    },
    {
      figure: '4. listRuns: bytes read per document (mean; max)',
      value: `${fmt.kib(r.list.meanBytesPerDoc)}; ${fmt.kib(r.list.maxBytesPerDoc)}`,
      goal: '≤ 64 KiB per document',
      pass: r.list.maxBytesPerDoc <= KIB64,
    },
  ]
  if (!r.delete.measured) {
    rows.push({
      figure: '4. delete of a run with a three-deep replay chain',
      value: r.delete.why,
      goal: 'seconds, independent of document size; ≤ 64 KiB per document',
      pass: null,
    })
  } else {
    const big = r.delete.tenants.bench
    const small = r.delete.tenants.small
    const sizeRatio = pairedRatio(big.ms, small.ms)
    rows.push(
      {
        figure: `4. delete of a run with a three-deep replay chain, ${fmt.int(big.docs)} documents (10% ~1 MB)`,
        value: `${fmt.s(median(big.ms))}; ${fmt.s(median(small.ms))} in a tenant of small documents only (${fmt.x(sizeRatio)})`,
        goal: `${docs >= 10_000 ? '≤ 2 s' : '≤ 2 s at 10,000 documents (full mode only)'}; independent of document size (≤ 1.5× the small-document tenant, for noise)`,
        pass: median(big.ms) <= deleteGoalMs && sizeRatio <= 1.5,
      },
      {
        figure: '4. delete: bytes read per document of the tenant (mean; max)',
        value: `${fmt.kib(big.bytesPerDoc)}; ${fmt.kib(big.maxBytesPerDoc)}`,
        goal: '≤ 64 KiB per document',
        pass: big.maxBytesPerDoc <= KIB64,
      },
    )
  }
  return { rows, raw: r }
}

export async function compare({ install, quick, tmp, log }) {
  const cases = 100_000
  log(`compare: a run against a baseline of ${fmt.int(cases)} cases`)
  const r = await runJsonChild(child('compare-child.js'), { pkg: install.pkg, dir: tmp, cases, reps: quick ? 5 : 7 }, { nodeArgs: NODE_ARGS })
  const bareRatio = pairedRatio(r.diskMs, r.bareParseMs)
  return {
    rows: [
      {
        figure: `6. compareRuns, ${fmt.int(cases)} cases, documents in memory`,
        value: fmt.ms(median(r.memoryMs)),
        goal: '< 500 ms',
        pass: median(r.memoryMs) < 500,
      },
      {
        figure: `6. compare from disk: read baseline + read run + compareRuns`,
        value: `${fmt.ms(median(r.diskMs))} (baseline ${fmt.ms(median(r.readBaselineMs))}, run ${fmt.ms(median(r.readRunMs))})`,
        goal: '< 500 ms',
        pass: median(r.diskMs) < 500,
      },
      {
        figure: `6. compare from disk ÷ a bare read and JSON.parse of the same two files`,
        value: `${fmt.x3(bareRatio)} (${fmt.ms(median(r.diskMs))} vs ${fmt.ms(median(r.bareParseMs))})`,
        goal: '≤ 2×',
        pass: bareRatio <= 2,
      },
      {
        figure: `6. writeRun of that ${fmt.int(cases)}-case document, for reference`,
        value: fmt.ms(r.writeRunMs),
        goal: '—',
        pass: null,
      },
    ],
    raw: { ...r, bareRatio },
  }
}

export async function regressionGate({ install, quick, log }) {
  const cases = 300
  const repetitions = quick ? 500 : 2000
  log(`regression gate: simulating ${repetitions} A/A and 10-point-drop pairs of ${cases} cases`)
  const r = await runJsonChild(child('gate-child.js'), { pkg: install.pkg, cases, repetitions }, { nodeArgs: NODE_ARGS })
  return {
    rows: [
      {
        figure: `7. regression gate, A/A false-regression rate (${cases} cases, ${fmt.int(repetitions)} pairs)`,
        value: `${fmt.pct(r.aa.rate)} (a raw-score gate: ${fmt.pct(r.aa.naiveRate)})`,
        goal: '< 5%',
        pass: r.aa.rate < 0.05,
      },
      {
        figure: `7. regression gate, power against a 10-point drop (${cases} cases)`,
        value: `${fmt.pct(r.power.rate)}`,
        goal: '> 80%',
        pass: r.power.rate > 0.8,
      },
    ],
    raw: r,
  }
}

export async function datasetRead({ install, quick, tmp, log }) {
  const rows = quick ? 20_000 : 100_000
  log(`dataset read: a CSV of ${fmt.int(rows)} rows, streamed into cases`)
  const r = await runJsonChild(child('dataset-child.js'), { pkg: install.pkg, dir: tmp, rows }, { nodeArgs: NODE_ARGS })
  const { small, large } = r
  const growth = large.bufferBytes / Math.max(small.bufferBytes, 1)
  return {
    rows: [
      {
        figure: `15. dataset(): ${fmt.int(large.rows)}-row CSV (${fmt.mib(large.bytes)}, quoted commas and newlines) read, hashed and mapped`,
        value: `${fmt.ms(large.ms)} (${fmt.int(Math.round(large.rows / (large.ms / 1000)))} rows/s); the cases kept: ${fmt.mib(large.keptBytes)} of heap`,
        goal: '—',
        pass: null,
      },
      {
        figure: `15. dataset(): file bytes held in buffers at their peak while reading, ${fmt.int(large.rows)} rows vs ${fmt.int(small.rows)}`,
        value: `${fmt.mib(large.bufferBytes)} vs ${fmt.mib(small.bufferBytes)} (the files: ${fmt.mib(large.bytes)} vs ${fmt.mib(small.bytes)})`,
        goal: 'bounded: ≤ 1 MiB at either size',
        pass: large.bufferBytes <= 1048576 && small.bufferBytes <= 1048576,
      },
    ],
    raw: { ...r, growth },
  }
}
