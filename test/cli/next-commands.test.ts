// Issue 23 item 14: every `digline …` command digline prints as a next step or hint is a command line
// the CLI accepts. The commands are read from the source itself (every string and template literal of
// src/ and plugin/, each `${…}` rendered with the values of a real project, each conditional both
// ways), so a hint added later is held too, whichever refusal class or message carries it. Each one
// runs through the CLI's main() in-process, in its own copy of a real project (the digline() plugin
// in vitest.config.ts, a file store with runs, a baseline and a stopped run's journal), and must not
// be refused as usage (UsageError: an unknown command or flag, a missing value, flags that do not
// go together). A command that starts a child process (Vitest, the MCP server) is followed up to that
// start: the child node records its arguments and exits (NODE_OPTIONS --import), so no Vitest runs
// here; the e2e tests run those launches whole.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import fg from 'fast-glob'
import ts from 'typescript'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { COMMANDS, main } from '../../src/cli/main.js'
import type { RunDocument } from '../../src/document/schema.js'
import { REFUSALS } from '../../src/errors/catalogue.js'
import { FileJournal } from '../../src/store/file/journal.js'
import { FileResultStore } from '../../src/store/file/store.js'
import { leaseOfThisProcess } from '../../src/store/live-writer.js'
import { wilson } from '../../src/stats/wilson.js'
import { createdAtSeconds, DEFAULT_CONFIG_HASH, keyOf, makeRun } from '../helpers/make-run.js'
import { copyProject, makeProject, type Project } from '../helpers/project.js'
import { journalHeader, LEG_1 } from '../store/journal-fixtures.js'

const ROOT = join(import.meta.dirname, '..', '..')
const COMMAND_NAMES = COMMANDS.map((c) => c.name)

// ---- the hints, read from the source -------------------------------------------------------------

const [BASE_AT, RUN_AT, PENDING_AT] = createdAtSeconds(3)
const BASE_KEY = keyOf(makeRun({ createdAt: BASE_AT }))
const RUN_KEY = keyOf(makeRun({ createdAt: RUN_AT }))
const PENDING_KEY = keyOf(makeRun({ createdAt: PENDING_AT }))

/** What a `${…}` stands for in a real project, by the last name in the expression (`resume.pending.key`: key). */
function valueOf(node: ts.Expression): string {
  const text = node.getText()
  if (ts.isNumericLiteral(node)) return node.text
  // requireFlag('export', 'out', values.out): the value of that flag
  if (ts.isCallExpression(node) && lastName(node.expression) === 'requireFlag' && node.arguments[1] !== undefined && ts.isStringLiteral(node.arguments[1]))
    return NAMED[node.arguments[1].text] ?? `⟨${text}⟩`
  const last = lastName(node)
  if (/^(key|promoted_from|replacing|latest|run|against)$/i.test(last))
    return /promoted_from|replacing|against|ref\b|\bold/i.test(text) ? BASE_KEY : /pending|resume|place/i.test(text) ? PENDING_KEY : RUN_KEY
  const value = NAMED[last] ?? (ts.isIdentifier(node) ? elementOf(node) : undefined)
  return value ?? `⟨${text}⟩`
}

const NAMED: Record<string, string> = {
  suite: 'capitals',
  into: 'rivers',
  tenant: 'acme',
  shard: '1/2',
  label: '1/2',
  shardLabel: '1/2',
  index: '1',
  count: '2',
  pid: '4194301',
  port: '0',
  out: 'exported',
  DEFAULT_EXPORT_DIR: 'digline-export',
  given: `exported/capitals/${RUN_KEY}.json`,
  min: '0.1',
  tags: 'smoke',
  detect: '0.1',
}

function lastName(node: ts.Expression): string {
  if (ts.isPropertyAccessExpression(node)) return node.name.text
  if (ts.isCallExpression(node) || ts.isElementAccessExpression(node) || ts.isNonNullExpression(node)) return lastName(node.expression)
  if (ts.isIdentifier(node)) return node.text
  return node.getText()
}

/** The placeholders the hints spell out for a person to fill in, as that person would. */
const PLACEHOLDERS: Record<string, string | null> = {
  KEY: RUN_KEY,
  A: RUN_KEY,
  B: BASE_KEY,
  NEW: RUN_KEY,
  NEW_KEY: RUN_KEY,
  OLD: BASE_KEY,
  S: 'capitals',
  SUITE: 'capitals',
  T: 'rivers',
  'i/N': '1/2',
  DIR: 'exported',
  'DIR…': 'exported',
  FILE: 'report.html',
  N: '12',
  '…': null,
}

const STOP_WORDS = new Set('or then and to with without in first again once is was would finishes if for from that the which so when of it shows lists says names'.split(' '))

interface Hint {
  where: string
  argv: string[]
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? sourceFiles(path) : /\.c?ts$/.test(name) ? [path] : []
  })
}

/** The texts a literal can print: each conditional both ways, each local constant by its value. */
function render(node: ts.Node, depth = 0): string[] {
  if (depth > 6) return ['⟨deep⟩']
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text]
  if (ts.isTemplateExpression(node)) {
    let texts = [node.head.text]
    for (const span of node.templateSpans) {
      const parts = render(span.expression, depth + 1)
      texts = texts.flatMap((t) => parts.map((p) => t + p + span.literal.text)).slice(0, 32)
    }
    return texts
  }
  if (ts.isParenthesizedExpression(node) || ts.isNonNullExpression(node) || ts.isAsExpression(node)) return render(node.expression, depth + 1)
  if (ts.isConditionalExpression(node)) return [...render(node.whenTrue, depth + 1), ...render(node.whenFalse, depth + 1)]
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const right = render(node.right, depth + 1)
    return render(node.left, depth + 1).flatMap((l) => right.map((r) => l + r))
  }
  if (ts.isIdentifier(node)) {
    const value = localConstant(node)
    if (value !== undefined) return render(value, depth + 1)
  }
  // tags.map((t) => ` --tag ${t}`).join(''): one element's text
  const mapped = mappedText(node)
  if (mapped !== undefined) return render(mapped, depth + 1)
  return [valueOf(node as ts.Expression)]
}

function mappedText(node: ts.Node): ts.Node | undefined {
  if (!ts.isCallExpression(node) || !ts.isPropertyAccessExpression(node.expression) || node.expression.name.text !== 'join') return undefined
  const map = node.expression.expression
  if (!ts.isCallExpression(map) || !ts.isPropertyAccessExpression(map.expression) || map.expression.name.text !== 'map') return undefined
  const fn = map.arguments[0]
  return fn !== undefined && ts.isArrowFunction(fn) && !ts.isBlock(fn.body) ? fn.body : undefined
}

/** An element of the array a `.map` callback walks (`t` of `tags.map((t) => …)`): what the array holds. */
function elementOf(id: ts.Identifier): string | undefined {
  for (let n: ts.Node | undefined = id.parent; n !== undefined; n = n.parent) {
    if (!ts.isArrowFunction(n) || !n.parameters.some((p) => ts.isIdentifier(p.name) && p.name.text === id.text)) continue
    const call = n.parent
    if (ts.isCallExpression(call) && ts.isPropertyAccessExpression(call.expression) && call.expression.name.text === 'map') return NAMED[lastName(call.expression.expression)]
  }
  return undefined
}

/** The initializer of the const this identifier names, when it is declared in an enclosing block of the same file. */
function localConstant(id: ts.Identifier): ts.Expression | undefined {
  for (let scope: ts.Node | undefined = id.parent; scope !== undefined; scope = scope.parent) {
    if (!ts.isBlock(scope) && !ts.isSourceFile(scope)) continue
    for (const statement of scope.statements) {
      if (!ts.isVariableStatement(statement) || statement.pos > id.pos) continue
      for (const d of statement.declarationList.declarations) {
        if (ts.isIdentifier(d.name) && d.name.text === id.text && d.initializer !== undefined && stringish(d.initializer)) return d.initializer
      }
    }
  }
  return undefined
}

function stringish(node: ts.Expression): boolean {
  return (
    ts.isStringLiteral(node) ||
    ts.isNoSubstitutionTemplateLiteral(node) ||
    ts.isTemplateExpression(node) ||
    ts.isConditionalExpression(node) ||
    (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken)
  )
}

/** A help text documents the grammar with its brackets, and a `when` says when a refusal is raised; the hints are everything else. */
function describes(node: ts.Node): boolean {
  for (let n: ts.Node | undefined = node; n !== undefined; n = n.parent) {
    if (ts.isPropertyAssignment(n) && ts.isIdentifier(n.name) && ['help', 'summary', 'when'].includes(n.name.text)) return true
  }
  return false
}

/**
 * The digline commands in a text: `digline …` between backticks, or bare `digline CMD` followed by a
 * flag, a placeholder or the end of a clause, its arguments running to the first word of prose.
 */
function commandsIn(text: string): string[][] {
  const found: string[][] = []
  for (const match of text.matchAll(/(^|[\s`(])(?:npx )?digline ([a-z]+)\b([^`]*)/g)) {
    const [, before, name, rest] = match as unknown as [string, string, string, string]
    if (!COMMAND_NAMES.includes(name)) continue
    if (before === '`') {
      found.push([name, ...(rest.split('`')[0] ?? '').split(/\s+/).filter((t) => t !== '')])
      continue
    }
    const argv = [name]
    const tokens = rest.split(/\s+/).filter((t) => t !== '')
    if (rest !== '' && !/^[\s,;.)]/.test(rest)) continue // `digline view: stopped`, `[the digline report](…)`: prose
    let expectsValue = false
    let ended = rest === '' || /^[,;.)]/.test(rest)
    for (const raw of tokens) {
      if (ended) break
      const token = raw.replace(/[,;.)]+$/, '')
      ended = token !== raw
      const flag = token.startsWith('-')
      const placeholder = token in PLACEHOLDERS || /^[A-Z][A-Z_]*$/.test(token) || /[/*⟨]|^\d{8}T/.test(token)
      const value = expectsValue && !STOP_WORDS.has(token) && !token.startsWith('(')
      if (!flag && !placeholder && !value && !(name === 'cache' && (token === 'clear' || token === 'why'))) break
      argv.push(token)
      expectsValue = flag && !token.includes('=')
    }
    // bare `digline run was refused`: prose about the command, unless a flag or a clause's end follows
    if (argv.length > 1 || ended || tokens.length === 0 || tokens[0]!.startsWith('(')) found.push(argv)
  }
  return found
}

function hintsOfSource(): { hints: Hint[]; unrendered: string[] } {
  const hints: Hint[] = []
  const unrendered: string[] = []
  for (const file of [...sourceFiles(join(ROOT, 'src')), ...sourceFiles(join(ROOT, 'plugin'))]) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
    const visit = (node: ts.Node): void => {
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) {
        if (!node.getText().includes('digline ') || describes(node)) return
        const where = `${relative(ROOT, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`
        for (const text of render(node)) {
          for (const argv of commandsIn(text)) {
            if (argv.some((a) => a.includes('⟨'))) unrendered.push(`${where}: digline ${argv.join(' ')}`)
            else hints.push({ where, argv: filled(argv) })
          }
        }
        return
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  return { hints, unrendered }
}

/** The argv a person types for a hint: placeholders filled in, `[optional]` parts taken. */
function filled(argv: string[]): string[] {
  return argv.flatMap((token) => {
    const bare = token.replace(/^\[|\]$/g, '')
    if (bare in PLACEHOLDERS) return PLACEHOLDERS[bare] === null ? [] : [PLACEHOLDERS[bare]!]
    const inPath = bare
      .replace(/\bDIR\b/, 'exported')
      .replace(/\bSUITE\b/, 'capitals')
      .replace(/^i\//, '1/')
    // a shell expands a glob before digline sees it
    return inPath.includes('*') ? fg.sync(inPath, { cwd: template.dir }) : [inPath]
  })
}

// ---- the project the hints run in ----------------------------------------------------------------

let template: Project
let stopper: string
const copies: string[] = []

/** A run of suite capitals whose five cases all passed: promotable. */
function passing(createdAt: string): RunDocument {
  const doc = makeRun({ createdAt, results: 5 })
  const results = doc.results.map((r) => ({
    ...r,
    verdict: 'pass' as const,
    score: 1,
    passed_samples: 1,
    reason: null,
    samples: [{ pass: true, score: 1, scorers: [{ name: 'exact', pass: true, score: 1, reason: null }] }],
  }))
  return { ...doc, results, aggregates: { ...doc.aggregates, passed: 5, failed: 0, pass_rate: 1, pass_rate_ci95: wilson(5, 5)!, mean_score: 1 } }
}

beforeAll(async () => {
  template = makeProject()
  const root = join(template.dir, '.digline')
  const store = new FileResultStore({ root })
  const base = passing(BASE_AT!)
  await store.writeRun(base)
  await store.writeRun(passing(RUN_AT!))
  await store.writeBaseline({ ...base, promoted_at: '2026-12-01T09:00:00.000001Z', promoted_from: BASE_KEY })
  await store.appendRegister('acme', {
    promoted_at: '2026-12-01T09:00:00.000001Z',
    suite: 'capitals',
    key: BASE_KEY,
    replaced: null,
    config_hash: DEFAULT_CONFIG_HASH,
    cases: 5,
    passed: 5,
    failed: 0,
    pass_rate: 1,
  })
  // a stopped run: its writer is gone, so it is resumable
  const gone = { ...leaseOfThisProcess(), pid: 4194301 }
  const leg = await new FileJournal({ root }).openJournal(journalHeader({ created_at: PENDING_AT!, lease: gone }), 1)
  for (const r of LEG_1.slice(0, 3)) await leg.append(r)
  await leg.close()
  // what `digline export` wrote, where the hints that follow it name it
  for (const out of [[], ['--out', 'exported']])
    expect(await main(['export', '--suite', 'capitals', ...out], { cwd: template.dir, env: {}, stdout: () => undefined, stderr: () => undefined })).toBe(0)
  const dir = mkdtempSync(join(tmpdir(), 'digline-next-'))
  copies.push(dir)
  stopper = join(dir, 'stop-at-start.mjs')
  writeFileSync(
    stopper,
    `import { appendFileSync } from 'node:fs'\nappendFileSync(process.env.NEXT_COMMANDS_LAUNCHES, JSON.stringify(process.argv.slice(1)) + '\\n')\nprocess.exit(0)\n`,
  )
})
afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true })
})

interface Outcome {
  code: number
  stderr: string
  launched: string[][]
}

/** One hint, run as a person would type it, in a fresh copy of the project. */
async function runHint(argv: string[]): Promise<Outcome> {
  const cwd = copyProject(template).dir
  copies.push(cwd)
  const launches = join(cwd, '.launches.jsonl')
  const err: string[] = []
  let served = (): void => undefined
  const serving = new Promise<void>((resolve) => (served = resolve))
  const env = { PATH: process.env.PATH, NO_COLOR: '1', CI: '1', NODE_OPTIONS: `--import=${pathToFileURL(stopper).href}`, NEXT_COMMANDS_LAUNCHES: launches }
  const listening = new Set(process.listeners('SIGINT'))
  const running = main(argv, { cwd, env, stdout: (t) => void (t.startsWith('digline view: serving') && served()), stderr: (t) => void err.push(t) })
  if (argv[0] === 'view') {
    // `digline view` serves until Ctrl-C: once it listens, its own SIGINT listener is called, as Ctrl-C would
    await Promise.race([running, serving])
    for (const listener of process.listeners('SIGINT')) if (!listening.has(listener)) (listener as (signal: string) => void)('SIGINT')
  }
  const code = await running
  const launched = existsSync(launches)
    ? readFileSync(launches, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as string[])
    : []
  return { code, stderr: err.join('\n'), launched }
}

function usageRefused(outcome: Outcome): boolean {
  return outcome.code === 64 && /refused UsageError/.test(outcome.stderr)
}

// ---- the tests -------------------------------------------------------------------------------------

let source: ReturnType<typeof hintsOfSource>
beforeAll(() => {
  source = hintsOfSource()
})

test('the hints are read from the source with values a real project has', () => {
  // a `${…}` inside a command that valueOf does not know: name what it stands for there
  expect(source.unrendered).toEqual([])
  expect(source.hints.length).toBeGreaterThan(60)
  // the refusal table's own next lines are among them
  const tabled = Object.values(REFUSALS).filter((e) => commandsIn(e.next).length > 0)
  expect(tabled.length).toBeGreaterThan(10)
})

test('every digline command a hint names is accepted by the CLI in a project where it applies', async () => {
  const distinct = new Map<string, string[]>()
  for (const h of source.hints) distinct.set(h.argv.join(' '), [...(distinct.get(h.argv.join(' ')) ?? []), h.where])
  const refused: string[] = []
  const launched: string[] = []
  const check = async ([line, where]: [string, string[]]) => {
    const argv = line.split(' ')
    let outcome = await runHint(argv)
    // `digline merge` again, what `digline export` wrote: a command named without its arguments names the command
    if (argv.length === 1 && usageRefused(outcome)) outcome = await runHint([argv[0]!, '--help'])
    // usage refusals are UsageError; any other refusal depends on the store's state, which a hint assumes
    if (usageRefused(outcome)) refused.push(`digline ${line}  (${where.join(', ')}):\n    ${outcome.stderr.split('\n')[0]}`)
    if (outcome.launched.length > 0) launched.push(line)
  }
  // three at a time; `digline view` alone, as its Ctrl-C is the process's
  const queue = [...distinct].filter(([line]) => !line.startsWith('view'))
  await Promise.all(
    Array.from({ length: 3 }, async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) await check(next)
    }),
  )
  for (const entry of [...distinct].filter(([line]) => line.startsWith('view'))) await check(entry)
  expect(refused).toEqual([])
  // the launches were reached: the CLI took those command lines and started Vitest or the MCP server
  expect(launched).toEqual(expect.arrayContaining(['run', 'run --no-cache', 'mcp']))
})
