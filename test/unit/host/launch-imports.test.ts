// What a launch on the file store imports before its first call (docs/adr/0280): the Vitest main
// process imports digline/plugin, a worker the suite API, the CLI its command table. None of them
// loads a module only a feature the launch does not use needs. One plain `node` process, no Vitest.
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { expect, test } from 'vitest'
import { modulesOf } from '../../helpers/bundled-modules.js'

const dist = fileURLToPath(new URL('../../../dist/', import.meta.url))

// A resolve hook, on its loader thread, that writes each file URL once to stderr. It writes to fd 2
// itself: the loader thread's process.stderr reaches fd 2 through the main thread, which may write
// its own lines first (a Node 22 CI run printed the marker of the tracing test before spans.js).
const HOOK = `data:text/javascript,${encodeURIComponent(
  "import { writeSync } from 'node:fs'; const seen = new Set(); export async function resolve(s, c, next) { const r = await next(s, c); if (!seen.has(r.url) && r.url.startsWith('file:')) { seen.add(r.url); writeSync(2, r.url + '\\n') } return r }",
)}`
const REGISTER = `data:text/javascript,${encodeURIComponent(`import { register } from 'node:module'; register(${JSON.stringify(HOOK)})`)}`

function loadedBy(entries: string[], then = ''): string[] {
  const script = entries.map((e) => `await import(${JSON.stringify(`${dist}${e}`)})`).join(';') + then
  const child = spawnSync(process.execPath, ['--import', REGISTER, '--input-type=module', '-e', `${script}; process.stderr.write('done\\n')`], {
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  expect(child.status, child.stderr).toBe(0)
  return child.stderr.split('\n').filter((line) => line.startsWith('file:'))
}

// the team store's code, the GitHub client, the glob and CSV readers, the MCP SDK, the model SDKs, the tracing API and digline's spans
const DEFERRED = [
  /\/dist\/src\/store\/postgres\/(?!server-name|errors)/,
  /\/node_modules\/@octokit\//,
  /\/node_modules\/fast-glob\//,
  /\/node_modules\/csv-parse\//,
  /\/node_modules\/@modelcontextprotocol\//,
  /\/node_modules\/(openai|ai|pg)\//,
  /\/node_modules\/@opentelemetry\//,
  /\/dist\/src\/driver\/otel-spans\.js$/,
]

test('the plugin, the suite API and the CLI load no module of a feature the launch does not use', () => {
  const loaded = loadedBy(['plugin/index.js', 'plugin/suite-entry.js', 'src/cli/main.js'])
  expect(loaded.some((url) => url.endsWith('/dist/plugin/suite-entry.js'))).toBe(true)
  expect(loaded.filter((url) => DEFERRED.some((pattern) => pattern.test(url)))).toEqual([])
})

// The package ships dist/bundle/ (ADR 0550): tsc's modules joined into a few chunks per loader, each a
// process or an entry and what it loads at once (scripts/bundle-loaders.json, ADR 0556). Read as the
// modules its files hold, a loader's entries load no module that the module build does not load for the
// loader's roots (a worker's: the suite API and the modules a fresh run imports on its way), so every
// rule here holds for the bundle too, and they open at most a quarter as many files.
const { entries: ENTRIES, loaders: LOADERS } = JSON.parse(readFileSync(new URL('../../../scripts/bundle-loaders.json', import.meta.url), 'utf8')) as {
  entries: string[]
  loaders: { name: string; roots: string[] }[]
}

// The CLI's bin runs a command as it loads; `digline --help` below holds it to what it needs.
test.each(LOADERS.filter((loader) => loader.name !== 'cli'))(
  'the shipped bundle loads, for $name, no module the module build does not, in at most a quarter as many files',
  ({ roots }) => {
    const own = (loaded: string[], under: string) => loaded.filter((url) => url.startsWith(pathToFileURL(under).href))
    const moduleBuild = loadedBy(roots.map((root) => `${root}.js`))
    const modules = own(moduleBuild, dist)
    const loaded = loadedBy(roots.filter((root) => ENTRIES.includes(root)).map((entry) => `bundle/${entry}.js`))
    const bundled = own(loaded, `${dist}bundle/`)
    expect(bundled.some((url) => url.endsWith(`/dist/bundle/${roots[0]}.js`))).toBe(true)
    expect(loaded.filter((url) => DEFERRED.some((pattern) => pattern.test(url)) && !moduleBuild.includes(url))).toEqual([])
    expect(modulesOf(bundled).filter((url) => !url.includes('/dist/bundle/') && !modules.includes(url))).toEqual([])
    expect(bundled.length * 4).toBeLessThanOrEqual(modules.length)
  },
)

// What a front end does not pay for until it calls it (ADR 0420): a store backend and the store's own
// code (but where the store is, how it is named and its errors), the driver (but a case's verdict rule),
// zod, the launch (but the directives, shards and reports a front end reads synchronously) and every
// host use case that reaches the store.
const HEAVY = [
  /\/dist\/src\/store\/(?!(?:errors|store-locator|server-name|store-gitignore|file\/errors|postgres\/errors)\.js$)/,
  /\/dist\/src\/driver\/(?!(?:errors|case-verdict)\.js$)/,
  /\/node_modules\/zod\//,
  /\/dist\/src\/host\/launch\/(?!(?:errors|launch-directive|launch-report|launch-vitest|planned-dates|run-budget|usage-estimate|shard|suite-launch|vitest-bin)\.js$)/,
  /\/dist\/src\/host\/(?:cache\/cache-store|judge\/(?:judge-run|compare-against|explain-run)|lifecycle\/(?:export-runs|import-runs|merge-shards|promote|rejudge)|plan\/plan|project\/(?:open-project|pending-rows|project-settings)|publish\/publish-verdict|report-data\/report-data|review\/(?:label-case|review-dataset|reviewer))\.js$/,
]
const heavy = (loaded: string[]) => loaded.filter((url) => HEAVY.some((pattern) => pattern.test(url)))

// Vitest's main process checks the options and words the verdicts: it opens no store and calls nothing (ADR 0407, 0420).
test("Vitest's main process loads neither the store, the driver, the launch nor zod", () => {
  const loaded = loadedBy(['plugin/index.js'])
  expect(loaded.some((url) => url.endsWith('/dist/plugin/reporter.js'))).toBe(true)
  expect(heavy(loaded)).toEqual([])
})

test("the host's one door loads none of them before a use case is called", () => {
  const loaded = loadedBy(['src/host/index.js'])
  expect(loaded.some((url) => url.endsWith('/dist/src/host/errors.js'))).toBe(true)
  expect(heavy(loaded)).toEqual([])
})

// A calling launch loads the replay, the merge, the answer cache, the tool replay and a shard's
// settling only on their own paths (ADR 0486): the worker's start of a fresh run never needs them.
const OWN_PATHS = /\/dist\/src\/host\/(?:lifecycle\/(?:merge-shards|rejudge)|cache\/(?:answer-cache|cache-store|code-files)|tools\/tool-replay|launch\/measure-shard)\.js$/

test('starting a suite loads none of the paths a fresh, unsharded, uncached launch does not take', () => {
  const loaded = loadedBy(['src/host/launch/start-suite.js'])
  expect(loaded.some((url) => url.endsWith('/dist/src/host/launch/launch-suite.js'))).toBe(true)
  expect(loaded.filter((url) => OWN_PATHS.test(url))).toEqual([])
})

// `digline --help` prints the command table: it imports no command, so none of what they use (ADR 0421).
test('`digline --help` loads no command, and none of them', () => {
  const help = `;const { main } = await import(${JSON.stringify(`${dist}src/cli/main.js`)}); const out = []; const code = await main(['--help'], { cwd: process.cwd(), env: process.env, stdout: (t) => out.push(t), stderr: (t) => out.push(t) }); if (code !== 0 || !out.join('').includes('digline <command>')) process.exit(3)`
  const loaded = loadedBy([], help)
  expect(loaded.some((url) => url.endsWith('/dist/src/cli/main.js'))).toBe(true)
  expect(loaded.filter((url) => url.includes('/dist/src/cli/commands/'))).toEqual([])
  expect(heavy(loaded)).toEqual([])
})

test('with the tracing API installed, digline imports it only once a tracer provider is registered (ADR 0406)', () => {
  const spans = `${dist}src/driver/spans.js`
  const script = [
    `const { runSpans } = await import(${JSON.stringify(spans)})`,
    `const none = await runSpans()`,
    `process.stderr.write('unregistered ' + typeof none.startCase + '\\n')`,
    // The project's own setup registers a provider with its copy of the API.
    `const { trace, ProxyTracerProvider } = await import('@opentelemetry/api')`,
    `trace.setGlobalTracerProvider(new ProxyTracerProvider())`,
    `await runSpans()`,
  ].join(';')
  const child = spawnSync(process.execPath, ['--import', REGISTER, '--input-type=module', '-e', script], {
    cwd: fileURLToPath(new URL('../../../', import.meta.url)),
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  expect(child.status, child.stderr).toBe(0)
  const lines = child.stderr.split('\n')
  const marker = lines.indexOf('unregistered function')
  expect(marker, child.stderr).toBeGreaterThan(0)
  const isTracing = (line: string) => /\/node_modules\/@opentelemetry\/|\/dist\/src\/driver\/otel-spans\.js$/.test(line)
  expect(lines.slice(0, marker).filter(isTracing)).toEqual([])
  expect(lines.slice(marker).some((line) => line.endsWith('/dist/src/driver/otel-spans.js'))).toBe(true)
})

test('the shipped bundle is ASCII and carries no JSDoc, so a launch decodes and parses fewer bytes (ADR 0568)', () => {
  const files = readdirSync(`${dist}bundle`, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'))
  expect(files.length).toBeGreaterThan(10)
  for (const file of files) {
    const text = readFileSync(`${dist}bundle/${file}`, 'utf8')
    // the report's page script is text in a template literal, left as it is written
    if (!file.startsWith('chunks/report-')) expect({ file, nonAscii: /[^\x00-\x7f]/.exec(text)?.[0] }).toEqual({ file, nonAscii: undefined })
    expect({ file, jsdoc: /\/\*\*\s/.exec(text)?.[0] }).toEqual({ file, jsdoc: undefined })
  }
})
