// The package's JavaScript as it ships (ADR 0550): tsc's modules in dist/ bundled into dist/bundle/,
// one file per entry point and shared chunks, so a launch loads tens of files instead of hundreds.
// Every dynamic import stays a chunk of its own: what a launch loads on use is still loaded on use.
// Packages stay imports (a user's npm dedupes them); only digline's own modules are joined.
//
//   node scripts/bundle.js        (after tsc -b tsconfig.build.json; `npm run build` runs both)
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, isAbsolute, join } from 'node:path'
import { rolldown } from 'rolldown'

const ROOT = join(import.meta.dirname, '..')
const DIST = join(ROOT, 'dist')
const OUT = join(DIST, 'bundle')

// What package.json names (its exports and its bin), and the modules that find a file beside them
// through import.meta.url: an entry module keeps its own file at its own path, so that path holds.
const ENTRIES = [
  'plugin/index',
  'plugin/suite-entry',
  'plugin/worker-setup', // named by plugin/index.ts as ./worker-setup.js, Vitest's setup file
  'src/cli/bin',
  'src/cli/commands/mcp', // spawns ../../mcp/bin.js
  'src/mcp/bin',
  'src/store/index',
  'src/models/index',
]

const bundle = await rolldown({
  input: Object.fromEntries(ENTRIES.map((entry) => [entry, join(DIST, `${entry}.js`)])),
  cwd: ROOT, // each joined module is marked `// dist/…/module.js` (test/helpers/bundled-modules.ts reads the marks)
  platform: 'node',
  external: (id) => !id.startsWith('.') && !isAbsolute(id),
  logLevel: 'warn',
})
const { output } = await bundle.generate({ format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' })
await bundle.close()
const wanted = new Map(output.map((file) => [join(OUT, file.fileName), file.type === 'chunk' ? file.code : Buffer.from(file.source)]))
// The CommonJS refusal is one file of its own (plugin/require-refusal.cts), not a module to bundle.
wanted.set(join(OUT, 'plugin', 'require-refusal.cjs'), readFileSync(join(DIST, 'plugin', 'require-refusal.cjs')))

// Only what changed is written, and only what is no longer made is removed: a bundle of unchanged
// modules leaves dist/bundle/ as it was, so a second bundling (the package check's, in .ci/run) never
// takes a file away from a copy being made of dist/ meanwhile (the Node 22 leg's).
for (const [file, content] of wanted) {
  const same = existsSync(file) && Buffer.from(content).equals(readFileSync(file))
  if (!same) {
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, content)
  }
}
const filesUnder = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)]))
for (const file of filesUnder(OUT)) if (!wanted.has(file)) rmSync(file)

// A file URL beside an entry is right only while the entry's code is in the entry's own file.
for (const [entry, beside] of [
  ['plugin/index', './worker-setup.js'],
  ['src/cli/commands/mcp', '../../mcp/bin.js'],
]) {
  if (!readFileSync(join(OUT, `${entry}.js`), 'utf8').includes(beside)) throw new Error(`dist/bundle/${entry}.js no longer names ${beside}: its code moved to a chunk`)
}
