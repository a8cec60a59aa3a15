import { detectForge, openProject, previewVerdict, publishVerdict, UsageError, workflowRunPage, type ForgeName, type PublishResult } from '../../host/index.js'
import { PROJECT_HELP, type Command } from '../command.js'
import { parseCommand, PROJECT_OPTIONS } from '../parse.js'
import { DEFAULT_REPORT_FILE } from './report.js'

export const commentCommand: Command = {
  name: 'comment',
  help: `Usage: digline comment [--suite S]... [--run KEY|latest] [--set NAME] [--report-url URL] [--dry-run]

Writes the verdict of the suites' runs (the comparison with the baseline, the flipped cases, the
intervals, a link to the report) to the pull request as ONE comment per suite set, found again by
a hidden marker and edited on the next push; and, on GitHub, a check run on the head commit with
one annotation per regressed case (a case that passed in the baseline and fails now), on the line
of its suite file that names it. On GitLab, the same as one merge-request note.

GitHub: GITHUB_TOKEN (pull-requests: write, checks: write), GITHUB_REPOSITORY, the pull request
from GITHUB_EVENT_PATH or GITHUB_REF, GITHUB_SHA, GITHUB_API_URL. GitLab: GITLAB_TOKEN (a project
access token with the api scope), CI_API_V4_URL, CI_PROJECT_ID, CI_MERGE_REQUEST_IID.
With DIGLINE_CREATED_AT set (as the action sets it for the gate), a suite whose run is not of that
launch is named as not judged. A token without write permission (a fork's pull request) is told
and exits 0: the gate's own exit code is the verdict. Exit 0 posted, 2 the forge failed, 64 refused.

  --suite S          a suite (repeatable; default: every suite with a run)
  --run KEY          the run, or latest (default); a KEY needs exactly one --suite
  --set NAME         names this comment among others on the pull request (default: the suites named, or all)
  --report-url URL   where the report can be opened (default DIGLINE_REPORT_URL; else the workflow run's artifacts)
  --report-file F    the report's file name, as the comment names it (default ${DEFAULT_REPORT_FILE})
  --pr N             the pull or merge request, over what the CI's variables say
  --forge F          github or gitlab (default: gitlab inside GitLab CI, else github)
  --dry-run          print the comment; read no token, send nothing

${PROJECT_HELP}`,
  async run(argv, io) {
    const { values } = parseCommand('comment', argv, {
      ...PROJECT_OPTIONS,
      suite: { type: 'string', multiple: true },
      run: { type: 'string' },
      set: { type: 'string' },
      'report-url': { type: 'string' },
      'report-file': { type: 'string' },
      pr: { type: 'string' },
      forge: { type: 'string' },
      'dry-run': { type: 'boolean' },
    })
    if (values.help) return (io.stdout(commentCommand.help), 0)
    const forge = values.forge ?? detectForge(io.env)
    if (forge !== 'github' && forge !== 'gitlab') throw new UsageError(`digline comment: --forge ${forge} is not github or gitlab`, 'Run `digline comment --help`.', ['--forge'])
    const pr = values.pr === undefined ? undefined : Number(values.pr)
    if (pr !== undefined && !(Number.isInteger(pr) && pr > 0))
      throw new UsageError(`digline comment: --pr ${values.pr} is not a pull request number`, 'Run `digline comment --help`.', ['--pr'])
    const url = reportUrl(values['report-url'] ?? io.env.DIGLINE_REPORT_URL)
    const runPage = workflowRunPage(io.env)
    const request = {
      suites: values.suite ?? [],
      run: values.run ?? 'latest',
      ...(values.set === undefined ? {} : { set: values.set }),
      ...(io.env.DIGLINE_CREATED_AT ? { createdAt: io.env.DIGLINE_CREATED_AT } : {}),
      link: { file: values['report-file'] ?? DEFAULT_REPORT_FILE, ...(url === undefined ? {} : { url }), ...(runPage === undefined ? {} : { runPage }) },
      ...(pr === undefined ? {} : { pr }),
    }
    const { settings, store } = await openProject(io.cwd, values, io.env)
    if (values['dry-run']) {
      const post = await previewVerdict(store, settings, request)
      io.stdout(post.body)
      io.stdout(`(dry run: nothing was sent; ${post.regressed.length} regressed case(s) would be annotated)`)
      return 0
    }
    const result = await publishVerdict(store, settings, { ...request, forge: forge as ForgeName }, io.env)
    for (const line of resultLines(result)) io.stdout(line)
    return 0
  },
}

function reportUrl(text: string | undefined): string | undefined {
  if (text === undefined || text === '') return undefined
  let url: URL
  try {
    url = new URL(text)
  } catch {
    url = new URL('invalid:')
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new UsageError(`digline comment: the report URL ${JSON.stringify(text)} is not an http(s) URL`, 'Pass `--report-url https://…` (or unset DIGLINE_REPORT_URL).', [
      '--report-url',
    ])
  // parentheses would end the markdown link early
  return url.href.replace(/\(/g, '%28').replace(/\)/g, '%29')
}

function resultLines(r: PublishResult): string[] {
  const lines: string[] = []
  const what = r.forge === 'github' ? 'comment' : 'note'
  const verdict = `exit ${r.post.exitCode} over ${r.post.suites.length} suite(s)`
  if (r.comment.action === 'not-permitted') {
    lines.push(
      `digline comment: the token may not write to ${r.target} (${r.comment.problem}). A pull request from a fork gets a read-only token; nothing was posted, and the verdict (${verdict}) is in the job's log and summary.`,
    )
  } else {
    lines.push(`digline comment: ${r.comment.action} the ${what} on ${r.target} (set ${r.post.set}, ${verdict})${r.comment.url === null ? '' : `: ${r.comment.url}`}`)
  }
  const check = r.checkRun
  if (check?.action === 'created') lines.push(`digline comment: created the check run with ${check.annotations} annotation(s)${check.url === null ? '' : `: ${check.url}`}`)
  else if (check?.action === 'not-permitted') lines.push(`digline comment: the token may not create a check run on ${r.target} (${check.problem}); nothing was posted there.`)
  else if (check?.action === 'skipped') lines.push(`digline comment: no check run: ${check.why}.`)
  if (r.unlocated.length > 0 && check?.action === 'created')
    lines.push(`digline comment: ${r.unlocated.length} regressed case(s) have no known file and are named in the check run's summary.`)
  return lines
}
