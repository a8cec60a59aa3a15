import { UsageError } from '../../host/index.js'
import { digestArtifacts } from '../../host/index.js'
import { explainCacheMiss, formatCacheWhy } from '../../host/index.js'
import { openProject } from '../../host/index.js'
import { collectNamedSuites, type SuiteManifestEntry } from '../../host/index.js'
import { artifactsDigest, codeDigest } from '../../suite/cache-key.js'
import { codeFilesOf, localCacheBeside } from '../../host/index.js'
import { PROJECT_HELP, type CliIo, type Command } from '../command.js'
import { parseCommand, requireFlag, PROJECT_OPTIONS } from '../parse.js'
import { vitestBin } from '../../host/index.js'

export const cacheCommand: Command = {
  name: 'cache',
  help: `Usage: digline cache clear [--suite S]
       digline cache why --suite S --case C [--sample N]

The response cache keeps the target's answers in the store (.digline/<tenant>/cache/, never
committed) when a run has it on: cache: true in the suite, DIGLINE_CACHE=1, or \`vitest --watch\`.
An answer is reused while the case input, the target config, the sample index, the artifacts and the
code the target runs (the suite file and the project modules it imports) are unchanged. A run that used cached answers says how many and is never promoted.

  clear        drop the cached answers of suite S, or of every suite of the tenant
  why          say whether sample N (default 0) of case C hits the cache, and if not, which part
               of its key changed since its answer was cached: input, target config, sample,
               artifacts, code (naming the files that changed; reads the suite as declared now, with \`vitest list\`; no case is called)

${PROJECT_HELP}`,
  async run(argv, io) {
    const [sub, ...rest] = argv
    if (sub === undefined || sub === '--help' || sub === '-h') {
      if (sub === undefined) throw new UsageError('digline cache: say clear or why', 'Run `digline cache --help`.')
      return (io.stdout(cacheCommand.help), 0)
    }
    if (sub === 'clear') return clear(rest, io)
    if (sub === 'why') return why(rest, io)
    throw new UsageError(`digline cache: unknown subcommand ${JSON.stringify(sub)}`, 'Run `digline cache --help`: the subcommands are clear and why.')
  },
}

async function clear(argv: string[], io: CliIo): Promise<0> {
  const { values } = parseCommand('cache clear', argv, { ...PROJECT_OPTIONS, suite: { type: 'string' } })
  if (values.help) return (io.stdout(cacheCommand.help), 0)
  if (values.suite === '') requireFlag('cache clear', 'suite', values.suite)
  const { settings, store } = await openProject(io.cwd, values, io.env)
  const local = await localCacheBeside(settings.storeRoot, settings.root)
  const removed = (await store.clearCache(settings.tenant, values.suite)) + (local === undefined ? 0 : await local.clearCache(settings.tenant, values.suite))
  const where = values.suite === undefined ? `every suite of tenant ${settings.tenant}` : `suite ${values.suite} (tenant ${settings.tenant})`
  io.stdout(removed === 0 ? `No cached answer of ${where} was there: nothing was removed.` : `Removed ${removed} cached answer${removed === 1 ? '' : 's'} of ${where}.`)
  return 0
}

async function why(argv: string[], io: CliIo): Promise<0> {
  const { values } = parseCommand('cache why', argv, { ...PROJECT_OPTIONS, suite: { type: 'string' }, case: { type: 'string' }, sample: { type: 'string' } })
  if (values.help) return (io.stdout(cacheCommand.help), 0)
  const suite = requireFlag('cache why', 'suite', values.suite)
  const caseId = requireFlag('cache why', 'case', values.case)
  const sample = values.sample === undefined ? 0 : Number(values.sample)
  if (!Number.isSafeInteger(sample) || sample < 0 || !/^\d+$/.test(values.sample ?? '0'))
    throw new UsageError(`digline cache why: --sample ${JSON.stringify(values.sample)} is not a sample index (0, 1, …)`, 'Run `digline cache why --help`.', ['--sample'])
  const { settings, store } = await openProject(io.cwd, values, io.env)
  // With a team store, watch mode's answers are cached locally (localCacheBeside): both are asked.
  const local = await localCacheBeside(settings.storeRoot, settings.root)
  const answer = await explainCacheMiss({
    store: {
      cachedAnswersOf: async (tenant, s, c) => {
        const shared = await store.cachedAnswersOf(tenant, s, c)
        return local === undefined ? shared : [...shared, ...(await local.cachedAnswersOf(tenant, s, c))].sort((a, b) => (a.cached_at < b.cached_at ? 1 : -1))
      },
    },
    tenant: settings.tenant,
    suite,
    caseId,
    sample,
    current: async () => {
      const declares = (e: SuiteManifestEntry) => e.suite === suite && e.tenant === settings.tenant
      const declared = (await collectNamedSuites([suite], (entries) => entries.some(declares), vitestBin(io.cwd), io.cwd, io.env, settings.configFile)).find(declares)
      if (declared?.cache === undefined) return undefined
      const input = declared.cache.inputs[caseId]
      if (input === undefined) return null
      const artifacts = artifactsDigest(await digestArtifacts(declared.cache.artifacts, declared.cache.root, suite))
      const codeFiles = await codeFilesOf(declared.file, declared.cache.root)
      return { input, target: declared.cache.target, artifacts, code: codeDigest(codeFiles), codeFiles }
    },
  })
  io.stdout(formatCacheWhy(answer))
  return 0
}
