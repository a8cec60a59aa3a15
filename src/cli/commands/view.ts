import { ViewHostRefusedError } from '../errors.js'
import { UsageError } from '../../host/index.js'
import { openProject } from '../../host/index.js'
import { followLiveRuns, reportData } from '../../host/index.js'
import { describeStore } from '../../host/index.js'
import { labelCase, reviewerOf } from '../../host/index.js'
import { randomBytes } from 'node:crypto'
import { startViewServer, VIEW_HOST } from '../../report/index.js'
import { PROJECT_HELP, type Command } from '../command.js'
import { parseCommand, PROJECT_OPTIONS } from '../parse.js'

export const DEFAULT_VIEW_PORT = 4179

export const viewCommand: Command = {
  name: 'view',
  help: `Usage: digline view [--port P] [--host 127.0.0.1] [--suite S]... [--review]

Serves the pages of \`digline report\` on http://127.0.0.1:P/ over the configured store, read-only
(GET only, nothing written), and follows runs in progress: the page asks for fresh data every
second and shows each case as its journal records it. Stop it with Ctrl-C.

With --review, each judged case of the runs shown gets a label form: the right verdict, agree or
disagree with each scorer, a note. Labels are appended to the store as review records, named by
DIGLINE_REVIEWER or else git's user.email; \`digline review list\` shows them. Only the page this
viewer served can post a label (its token, its origin, 127.0.0.1).

  --port P         the port (default ${DEFAULT_VIEW_PORT}; 0 picks a free one)
  --review         let the page label cases (otherwise nothing is ever written)
  --host H         only 127.0.0.1 is accepted: the viewer serves this machine alone
  --suite S        a suite to show (repeatable; default: every suite of the tenant)

${PROJECT_HELP}`,
  async run(argv, io) {
    const { values } = parseCommand('view', argv, {
      ...PROJECT_OPTIONS,
      port: { type: 'string' },
      host: { type: 'string' },
      suite: { type: 'string', multiple: true },
      review: { type: 'boolean' },
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
    const reviewer = values.review === true ? await reviewerOf(io.cwd, io.env) : undefined
    const { settings, store } = await openProject(io.cwd, values, io.env)
    const suites = values.suite ?? []
    const tenant = settings.tenant
    // one follower for the viewer's life: each poll reads only what the journals gained
    const live = await followLiveRuns(store, tenant)
    const load = async () => {
      const data = await reportData(store, { tenant, suites, run: 'latest', withLive: live, skipEmpty: true })
      if (reviewer === undefined) return data
      const reviews = await Promise.all(data.suites.map((s) => store.listReviews(tenant, s.suite, s.run.key)))
      return { ...data, reviews: reviews.flat() }
    }
    // read once before listening: a suite name the store refuses is refused here, not on every request
    await load()
    const server = await startViewServer({
      port,
      load,
      onError: (error) => io.stderr(`digline view: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`),
      ...(reviewer === undefined
        ? {}
        : {
            review: {
              token: randomBytes(32).toString('hex'),
              reviewer,
              label: async (label) => {
                const { review, stored } = await labelCase(store, { tenant, reviewer }, label)
                io.stdout(
                  `digline view: ${reviewer} labelled case ${review.case_id} of run ${review.run} of suite ${review.suite}: ${review.verdict}${stored.appended ? '' : ' (already kept)'}`,
                )
                return { appended: stored.appended, review }
              },
              onRefused: (refusal, status) => io.stderr(`digline view: refused a label (${status} ${refusal.name}): ${refusal.message.split('\n')[0]}`),
            },
          }),
    })
    const mode = reviewer === undefined ? 'read-only' : `review mode: labels by ${reviewer}`
    io.stdout(`digline view: serving ${tenant} from ${describeStore(settings.storeRoot)} on ${server.url} (${mode}; Ctrl-C stops it)`)
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
