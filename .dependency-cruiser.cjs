// The layers of ARCHITECTURE.md, checked in CI (`npm run lint`). Data flows one way: a module may
// import only from its own layer or the layers below it, and a front end never imports another front
// end or a store backend's insides.
const LAYERS = [
  ['base', '^src/(errors/|(version|exit-codes)\\.ts$)'],
  ['suite', '^src/suite/'],
  ['document', '^src/document/'],
  ['stats', '^src/stats/'],
  ['engine', '^src/(driver|scorers|models)/'],
  ['store', '^src/store/'],
  ['host', '^src/host/'],
]
const FRONT_ENDS = ['^plugin/', '^src/cli/', '^src/report/', '^src/mcp/']

const forbidden = [
  {
    name: 'no-circular',
    severity: 'error',
    comment: 'Import cycles hide which layer owns what; a type-only one too (move the shared types down).',
    from: {},
    to: { circular: true },
  },
  { name: 'src-never-imports-vitest', severity: 'error', from: { path: '^src/' }, to: { path: 'node_modules/(vitest|@vitest)/' } },
]
// Each layer keeps the errors it raises in a leaf module, errors.ts, that imports only the errors
// base. That is what lets the one registry, src/errors/catalogue.ts, sit at the lowest layer (every
// layer recognises errors through it) and still collect every layer's errors (ADR 0140).
const ERROR_MODULE = '^(src/|src/.+/|plugin/)errors\\.ts$'
const ERROR_CATALOGUE = '^src/errors/catalogue\\.ts$'
LAYERS.forEach(([name, path], index) => {
  const higher = LAYERS.slice(index + 1).map(([, p]) => p)
  forbidden.push({
    name: `layer-${name}-imports-only-below`,
    comment: `${name} may not import a layer above it, nor a front end`,
    severity: 'error',
    from: { path, ...(name === 'base' ? { pathNot: ERROR_CATALOGUE } : {}) },
    to: { path: [...higher, ...FRONT_ENDS] },
  })
})
forbidden.push({
  name: 'error-modules-are-leaves',
  comment: "a layer's errors.ts imports only the errors base, so the catalogue may collect it from the lowest layer",
  severity: 'error',
  from: { path: ERROR_MODULE },
  to: { pathNot: '^src/errors/base\\.ts$' },
})
forbidden.push({
  name: 'error-catalogue-imports-only-error-modules',
  comment: 'the catalogue reaches above the base layer only for the leaf errors.ts modules',
  severity: 'error',
  from: { path: ERROR_CATALOGUE },
  to: { pathNot: [ERROR_MODULE, '^src/errors/base\\.ts$'] },
})
// The bin is how a person reaches every front end: its commands may import another front end's
// entry module (src/<front end>/index.ts) and nothing behind it (ADR 0055).
const FRONT_END_ENTRY = '^src/(report|mcp)/index\\.ts$'

FRONT_ENDS.forEach((path) => {
  forbidden.push({
    name: `front-end-${path.replace(/\W/g, '')}-stays-apart`,
    comment: "a front end never imports another front end (the bin's commands may import a front end's entry module)",
    severity: 'error',
    from: { path },
    to: { path: FRONT_ENDS.filter((p) => p !== path), ...(path === '^src/cli/' ? { pathNot: FRONT_END_ENTRY } : {}) },
  })
  forbidden.push({
    name: `front-end-${path.replace(/\W/g, '')}-never-reaches-into-a-backend`,
    comment: 'front ends reach the store through its contract and the open-store factory, never a backend folder',
    severity: 'error',
    from: { path },
    to: { path: '^src/store/(file|postgres)/' },
  })
  forbidden.push({
    name: `front-end-${path.replace(/\W/g, '')}-enters-the-host-by-its-door`,
    comment:
      'a front end imports the host only through src/host/index.ts, which loads a use case at its first call (ADR 0420), and the store not at all (the host hands it what it needs)',
    severity: 'error',
    from: { path },
    to: { path: ['^src/host/', '^src/store/'], pathNot: '^src/host/index\\.ts$' },
  })
})

forbidden.push({
  name: 'one-judgement',
  comment: 'a run becomes an outcome only through judgeRun (host/judge/judge-run.ts, ADR 0110): outside judge/, the comparison is imported for its types only',
  severity: 'error',
  from: { pathNot: '^src/host/judge/' },
  to: { path: '^src/host/judge/(compare|flaky-cases)\\.ts$', dependencyTypesNot: ['type-only'] },
})
forbidden.push({
  name: 'host-never-reaches-into-a-backend',
  comment: 'the host reaches the store through its contract and open-store.ts, never a backend folder',
  severity: 'error',
  from: { path: '^src/host/' },
  to: { path: '^src/store/(file|postgres)/' },
})
forbidden.push({
  name: 'backends-stay-apart',
  comment: 'the file store and the team store share only what lies in src/store/ itself',
  severity: 'error',
  from: { path: '^src/store/file/' },
  to: { path: '^src/store/postgres/' },
})
forbidden.push({
  name: 'backends-stay-apart-postgres',
  comment: 'the file store and the team store share only what lies in src/store/ itself',
  severity: 'error',
  from: { path: '^src/store/postgres/' },
  to: { path: '^src/store/file/' },
})
forbidden.push({
  name: 'store-contract-never-reaches-into-a-backend',
  comment: 'the contract level of src/store/ (header bounds, journal format, run checks) holds for every backend; only the factory and the barrel name one (ADR 0160)',
  severity: 'error',
  from: { path: '^src/store/[^/]+$', pathNot: '^src/store/(index|open-store)[.]ts$' },
  to: { path: '^src/store/(file|postgres)/' },
})

module.exports = {
  forbidden,
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.js'] },
  },
}
