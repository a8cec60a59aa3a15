#!/usr/bin/env node
// `npm run bench`: the performance figures digline is held to (issue 7, docs/performance.md).
//
//   node bench/run.js [--quick] [--only 1,3,7] [--keep]
//
// Installs the packed package into a temp directory (as the end-to-end tests do), measures each
// figure side by side with what it is compared with, in this one run, as the median of several
// repetitions, prints a markdown table (figure, value, goal, pass/miss) and writes
// bench/results/latest.json. --quick uses smaller sizes and finishes in under 3 minutes; the full
// mode takes about a quarter of an hour on 2 cores. Exit 0 when every figure was measured (a missed
// goal is reported, not an error), 1 when a figure could not be measured.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { installed, installPackedDigline, REPO } from './lib/install.js'
import { measureFsync } from './lib/floor.js'
import { fmt } from './lib/stats.js'
import { overhead } from './figures/overhead.js'
import { launchPhases } from './figures/launch-phases.js'
import { concurrency } from './figures/concurrency.js'
import { memory } from './figures/memory.js'
import { compare, datasetRead, regressionGate, resumePlanning, tenantScan } from './figures/inprocess.js'
import { amountGates } from './figures/gates.js'
import { statistics } from './figures/statistics.js'
import { adaptiveSamples } from './figures/adaptive.js'
import { agreement } from './figures/agreement.js'
import { journalAppend, teamConcurrency, teamListing } from './figures/team-store.js'
import { shards } from './figures/shards.js'
import { report } from './figures/report.js'
import { variants } from './figures/variants.js'
import { scale } from './figures/scale.js'

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
})

const FIGURES = [
  { id: 1, name: 'plugin overhead', run: overhead },
  { id: 20, name: 'where the launch goes', run: launchPhases },
  { id: 2, name: 'concurrency efficiency', run: concurrency },
  { id: 3, name: 'resume planning', run: resumePlanning },
  { id: 4, name: 'scan and delete in a large tenant', run: tenantScan },
  { id: 5, name: 'memory', run: memory },
  { id: 6, name: 'compare', run: compare },
  { id: 7, name: 'regression gate', run: regressionGate },
  { id: 13, name: 'cost and latency gates', run: amountGates },
  { id: 14, name: 'gates at every size', run: statistics },
  { id: 16, name: 'adaptive samples', run: adaptiveSamples },
  { id: 8, name: 'team store: journal append', run: journalAppend },
  { id: 9, name: 'team store: concurrency', run: teamConcurrency },
  { id: 10, name: 'team store: listing', run: teamListing },
  { id: 11, name: 'sharded runs', run: shards },
  { id: 12, name: 'the single-file report', run: report },
  { id: 15, name: 'dataset read', run: datasetRead },
  { id: 17, name: 'judge agreement interval', run: agreement },
  { id: 18, name: 'variants: pairwise verdicts', run: variants },
  { id: 19, name: 'flat at scale: cases from JSONL', run: scale },
]

const selected = args.only === undefined ? FIGURES : FIGURES.filter((f) => args.only.split(',').map(Number).includes(f.id))
const log = (line) => process.stderr.write(`[bench] ${line}\n`)

function sh(cmd, argv) {
  try {
    return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  } catch {
    return undefined
  }
}

function machine(dir) {
  const mount = sh('findmnt', ['-no', 'SOURCE,FSTYPE', '-T', dir]) ?? sh('df', ['-T', dir])?.split('\n')[1] ?? 'unknown'
  const device = mount.split(/\s+/)[0]?.replace('/dev/', '')
  let rotational
  try {
    rotational = readFileSync(`/sys/block/${device}/queue/rotational`, 'utf8').trim() === '1'
  } catch {}
  return {
    date: new Date().toISOString(),
    nproc: availableParallelism(),
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform} ${sh('uname', ['-r']) ?? ''}`.trim(),
    disk: `${mount}${rotational === undefined ? '' : rotational ? ' (reported rotational)' : ' (non-rotational)'}`,
    loadavgAtStart: loadavg().map((x) => Number(x.toFixed(2))),
    commit: sh('git', ['-C', REPO, 'rev-parse', '--short', 'HEAD']),
    dirty: (sh('git', ['-C', REPO, 'status', '--porcelain', '--untracked-files=no']) ?? '') !== '',
  }
}

function table(rows) {
  const cell = (s) => String(s).replaceAll('|', '\\|')
  const mark = (p) => (p === true ? 'pass' : p === false ? '**miss**' : '—')
  return ['| figure | value | goal | result |', '|---|---|---|---|', ...rows.map((r) => `| ${cell(r.figure)} | ${cell(r.value)} | ${cell(r.goal)} | ${mark(r.pass)} |`)].join('\n')
}

const started = Date.now()
const tmp = mkdtempSync(join(tmpdir(), 'digline-bench-'))
const info = machine(tmp)
log(`${args.quick ? 'quick' : 'full'} mode; ${info.nproc} cores (${info.cpu}), Node ${info.node}, disk ${info.disk}; temp ${tmp}`)
const results = { mode: args.quick ? 'quick' : 'full', machine: info, figures: {} }
let rows = []
let failed = 0
try {
  log('installing the packed package')
  const install = installed(installPackedDigline(tmp))
  const floor = await measureFsync(tmp, 2000)
  results.floor = floor
  rows.push({
    figure: '0. floor: write + fsync of one journal record on this disk (2,000 in a row)',
    value: `mean ${fmt.ms(floor.appendAndFsyncMeanMs)}, median ${fmt.ms(floor.appendAndFsyncMs)} (fsync alone: median ${fmt.ms(floor.fsyncMs)})`,
    goal: '—',
    pass: null,
  })
  for (const figure of selected) {
    const t = Date.now()
    log(`figure ${figure.id}: ${figure.name}`)
    try {
      // `earlier`: what the figures before it measured in this run (figure 2 reads figure 1's launch cost).
      const out = await figure.run({ install, quick: args.quick, tmp, log, earlier: results.figures })
      rows.push(...out.rows)
      results.figures[figure.id] = { name: figure.name, seconds: (Date.now() - t) / 1000, rows: out.rows, raw: out.raw }
    } catch (error) {
      failed++
      const message = error instanceof Error ? error.message : String(error)
      log(`figure ${figure.id} could not be measured: ${message}`)
      rows.push({ figure: `${figure.id}. ${figure.name}`, value: `not measured: ${message.split('\n')[0]}`, goal: '—', pass: false })
      results.figures[figure.id] = { name: figure.name, error: message }
    }
    log(`figure ${figure.id} took ${((Date.now() - t) / 1000).toFixed(0)} s`)
  }
} finally {
  if (!args.keep) rmSync(tmp, { recursive: true, force: true })
  else log(`kept ${tmp}`)
}

results.seconds = (Date.now() - started) / 1000
results.machine.loadavgAtEnd = loadavg().map((x) => Number(x.toFixed(2)))
results.rows = rows
const header = `digline bench (${results.mode}), ${info.date.slice(0, 10)}: ${info.nproc} × ${info.cpu}, ${info.memoryGiB} GiB, Node ${info.node}, disk ${info.disk}; load ${info.loadavgAtStart.join(' ')} → ${results.machine.loadavgAtEnd.join(' ')}; ${results.seconds.toFixed(0)} s`
const text = `${header}\n\n${table(rows)}\n`
process.stdout.write(`\n${text}`)
mkdirSync(join(REPO, 'bench', 'results'), { recursive: true })
writeFileSync(join(REPO, 'bench', 'results', 'latest.json'), `${JSON.stringify({ ...results, table: text }, null, 2)}\n`)
log(`wrote bench/results/latest.json`)
process.exitCode = failed === 0 ? 0 : 1
