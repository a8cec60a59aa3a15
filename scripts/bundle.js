// The package's JavaScript as it ships (ADR 0550, 0556): tsc's modules in dist/ bundled into
// dist/bundle/, one file per entry point and a few chunks per process that loads them. What a launch
// loads on use is still loaded on use. Packages stay imports (a user's npm dedupes them); only
// digline's own modules are joined.
//
//   node scripts/bundle.js        (after tsc -b tsconfig.build.json; `npm run build` runs both)
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, isAbsolute, join } from 'node:path'
import { rolldown } from 'rolldown'

const ROOT = join(import.meta.dirname, '..')
const DIST = join(ROOT, 'dist')
const OUT = join(DIST, 'bundle')

// scripts/bundle-loaders.json names the entries and the loaders (ADR 0556).
// Entries: what package.json names (its exports and its bin), and the modules that find a file beside
// them through import.meta.url (plugin/index names ./worker-setup.js, Vitest's setup file;
// cli/commands/mcp spawns ../../mcp/bin.js): an entry keeps its own code at its own path.
// Loaders: what a process loads at once, joined into a few chunks instead of the tens rolldown's own
// splitting makes (a chunk for every set of entries and dynamic imports that share modules). A loader
// is an entry with what it loads before it returns; a worker's roots add start-suite, whose static
// imports are a fresh run's whole path. Modules are grouped by the set of loaders that load them, so no
// loader loads a module it does not use; what only a path of its own loads (the team store, the
// replay, the merge of shards, a CLI command) stays split as rolldown splits it, and loads on use.
const { entries: ENTRIES, loaders: LOADERS } = JSON.parse(readFileSync(join(ROOT, 'scripts', 'bundle-loaders.json'), 'utf8'))
const moduleOf = (entry) => join(DIST, `${entry}.js`)

/** The bundle's files, and each module's static imports (a package by its bare name). */
async function generate(codeSplitting) {
  const importsOf = new Map()
  const fileImports = {
    name: 'file-imports',
    generateBundle() {
      for (const id of this.getModuleIds()) importsOf.set(id, this.getModuleInfo(id)?.importedIds ?? [])
    },
  }
  const bundle = await rolldown({
    input: Object.fromEntries(ENTRIES.map((entry) => [entry, moduleOf(entry)])),
    cwd: ROOT, // each joined module is marked `// dist/…/module.js` (test/helpers/bundled-modules.ts reads the marks)
    platform: 'node',
    external: (id) => !id.startsWith('.') && !isAbsolute(id),
    logLevel: 'warn',
    plugins: [fileImports],
    // A group takes only the modules it names, not their imports too; an entry may then export more than its own names.
    ...(codeSplitting === undefined ? {} : { preserveEntrySignatures: 'allow-extension' }),
  })
  try {
    const grouped = codeSplitting === undefined ? {} : { codeSplitting }
    // ASCII without JSDoc (ADR 0568): a worker decodes and parses fewer bytes, and a file of one-byte
    // characters stays one-byte in V8; the types keep their docs in the .d.ts files tsc writes.
    const text = { charset: 'ascii', comments: { legal: true, annotation: true, jsdoc: false } }
    const { output } = await bundle.generate({ format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js', ...text, ...grouped })
    return { output, importsOf }
  } finally {
    await bundle.close()
  }
}

/**
 * The group each module joins, named by the loaders that load it: the modules of the chunks a loader's
 * roots load in rolldown's own split (a module a barrel re-exports but no importer uses is in none of
 * them). An entry keeps its code in its own file (a file found through import.meta.url needs that).
 */
function loaderGroups(split, importsOf) {
  const chunks = split.filter((file) => file.type === 'chunk')
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]))
  const entries = new Set(ENTRIES.map(moduleOf))
  const loadersOf = new Map()
  for (const { name, roots } of LOADERS) {
    const loaded = new Set(
      roots.map((root) => {
        const chunk = chunks.find((c) => c.moduleIds.includes(moduleOf(root)))
        if (chunk === undefined) throw new Error(`scripts/bundle.js: loader ${name} names ${root}, which no chunk holds`)
        return chunk
      }),
    )
    for (const chunk of loaded) for (const file of chunk.imports) if (byName.has(file)) loaded.add(byName.get(file))
    for (const chunk of loaded) for (const id of chunk.moduleIds) if (!entries.has(id)) loadersOf.set(id, [...(loadersOf.get(id) ?? []), name])
  }
  // A module joins a group with the others that need the same packages, itself or through what it imports:
  // a path that shares a loader's other modules without being that loader (a CLI command) loads neither
  // Vitest nor the MCP SDK with them. A group then imports only groups of more loaders or fewer packages,
  // never one that imports it back.
  const packageOf = (dep) =>
    dep
      .split('/')
      .slice(0, dep.startsWith('@') ? 2 : 1)
      .join('/')
  const packagesOf = (id) => {
    const reached = new Set([id])
    const packages = new Set()
    for (const module of reached)
      for (const dep of importsOf.get(module) ?? []) {
        if (isAbsolute(dep)) reached.add(dep)
        else if (!dep.startsWith('node:')) packages.add(packageOf(dep))
      }
    return packages
  }
  const keyOf = (id, names) => [names.join('-'), ...[...packagesOf(id)].sort().map((p) => p.replace(/[@/]/g, ''))].join('+')
  return new Map([...loadersOf].map(([id, names]) => [id, keyOf(id, names)]))
}

const split = await generate()
const groupOf = loaderGroups(split.output, split.importsOf)
const { output } = await generate({
  groups: [{ name: (id) => (groupOf.has(id) ? `loaded-by-${groupOf.get(id)}` : null), debugName: 'loader groups', includeDependenciesRecursively: false }],
})
// Groups import only modules their loaders load too, so no two chunks should import each other.
const chunkImports = new Map(output.filter((file) => file.type === 'chunk').map((chunk) => [chunk.fileName, chunk.imports]))
const reaches = (from, to, seen = new Set()) => (chunkImports.get(from) ?? []).some((next) => next === to || (!seen.has(next) && seen.add(next) && reaches(next, to, seen)))
for (const file of chunkImports.keys())
  if (reaches(file, file)) throw new Error(`scripts/bundle.js: ${file} imports itself through other chunks; its modules could run out of order`)

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
