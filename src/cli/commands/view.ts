import { ViewHostRefusedError } from '../errors.js'
import { UsageError } from '../../host/index.js'
import { openProject } from '../../host/index.js'
import { reportData } from '../../host/index.js'
import { describeStore } from '../../host/index.js'
import { startViewServer, VIEW_HOST } from '../../report/index.js'
import { PROJECT_HELP, type Command } from '../command.js'
import { parseCommand, PROJECT_OPTIONS } from '../parse.js'

export const DEFAULT_VIEW_PORT = 4179

export const viewCommand: Command = {
  name: 'view',
  summary: 'serve the report on 127.0.0.1, following runs in progress',
  help: `Usage: digline view [--port P] [--host 127.0.0.1] [--suite S]...

Serves the pages of \`digline report\` on http://127.0.0.1:P/ over the configured store, read-only
(GET only, nothing written), and follows runs in progress: the page asks for fresh data every
second and shows each case as its journal records it. Stop it with Ctrl-C.

  --port P         the port (default ${DEFAULT_VIEW_PORT}; 0 picks a free one)
  --host H         only 127.0.0.1 is accepted: the viewer serves this machine alone
  --suite S        a suite to show (repeatable; default: every suite of the tenant)

${PROJECT_HELP}`,
  async run(argv, io) {
    const { values } = parseCommand('view', argv, {
      ...PROJECT_OPTIONS,
      port: { type: 'string' },
      host: { type: 'string' },
      suite: { type: 'string', multiple: true },
    })
    if (values.help) return (io.stdout(viewCommand.help), 0)
    if (values.host !== undefined && values.host !== VIEW_HOST)
      throw new ViewHostRefusedError(
        `digline view serves ${VIEW_HOST} only; --host ${values.host} was refused, and nothing was started`,
        `Run \`digline view${values.port === undefined ? '' : ` --port ${values.port}`}\` (it listens on ${VIEW_HOST}); to share a report, write one file with \`digline report --out FILE\`.`,
        ['--host'],
      )
    const port = Number(values.port ?? DEFAULT_VIEW_PORT)
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new UsageError(`digline view: --port ${values.port} is not a port number (0 to 65535)`, 'Run `digline view --help`.', ['--port'])
    const { settings, store } = await openProject(io.cwd, values, io.env)
    const suites = values.suite ?? []
    const load = () => reportData(store, { tenant: settings.tenant, suites, run: 'latest', withLive: true, skipEmpty: true })
    // read once before listening: a suite name the store refuses is refused here, not on every request
    await load()
    const server = await startViewServer({
      port,
      load,
      onError: (error) => io.stderr(`digline view: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`),
    })
    io.stdout(`digline view: serving ${settings.tenant} from ${describeStore(settings.storeRoot)} on ${server.url} (read-only; Ctrl-C stops it)`)
    await new Promise<void>((done) => {
      const stop = () => {
        process.off('SIGINT', stop)
        process.off('SIGTERM', stop)
        done()
      }
      process.on('SIGINT', stop)
      process.on('SIGTERM', stop)
    })
    await server.close()
    // The one store the viewer read for its whole life (with the team store, its connection pool).
    await store.close()
    io.stdout('digline view: stopped')
    return 0
  },
}
