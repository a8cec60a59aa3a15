// Figure 15 (in its own process): a CSV of ROWS rows (quoted commas, one quoted newline every 50
// rows) read into cases by dataset(), memory sampled while it reads. The file's bytes are held in
// Buffers (outside the JS heap): their peak while reading, compared at a tenth of the rows, shows the
// read is streamed (a whole-file read would hold the file); the heap kept is the cases themselves.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gc, importDist, reply } from './common.js'

const { pkg, dir, rows } = JSON.parse(process.argv[2])
const { readDataset } = await importDist(pkg, 'src/suite/dataset.js')

function csv(n, path) {
  const lines = ['id,input,expected,tags,source']
  for (let i = 0; i < n; i++) {
    const body = i % 50 === 0 ? `"ticket ${i}: the invoice, again\nsecond line"` : `"ticket ${i}: charged twice, please refund"`
    lines.push(`t${i},${body},refund,"billing,eu",tickets`)
  }
  writeFileSync(path, `${lines.join('\n')}\n`)
  return Buffer.byteLength(lines.join('\n')) + 1
}

async function measure(n) {
  const file = `rows-${n}.csv`
  const bytes = csv(n, join(dir, file))
  gc()
  const start = process.memoryUsage()
  const before = start.heapUsed
  let peakBuffers = start.arrayBuffers
  const sampler = setInterval(() => (peakBuffers = Math.max(peakBuffers, process.memoryUsage().arrayBuffers)), 10)
  const t = performance.now()
  const d = await readDataset(file, { root: dir })
  const ms = performance.now() - t
  clearInterval(sampler)
  gc()
  const kept = process.memoryUsage().heapUsed
  if (d.cases.length !== n) throw new Error(`read ${d.cases.length} of ${n} rows`)
  return { rows: n, bytes, ms, keptBytes: kept - before, bufferBytes: Math.max(0, peakBuffers - start.arrayBuffers) }
}

const small = await measure(Math.round(rows / 10))
const large = await measure(rows)
reply({ small, large })
