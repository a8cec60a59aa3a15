// ADR 0044 §7: every class in this repository that defines deleteRun reaches the baseline check,
// found by walking the calls its deleteRun makes (resolved by the TypeScript checker) down to a
// body that raises PromotedRunError. A control class that skips the check fails the same walk.
// Like any such walk, it reaches the implementations here and no others.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import ts from 'typescript'
import { afterAll, expect, test } from 'vitest'

const REPO = resolve(import.meta.dirname, '..', '..')
const REFUSAL = 'PromotedRunError'

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sources(path)
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : []
  })
}

type Callable = ts.FunctionLikeDeclaration & { body?: ts.Node }

function raisesRefusal(body: ts.Node): boolean {
  let found = false
  const visit = (node: ts.Node): void => {
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === REFUSAL) found = true
    if (!found) ts.forEachChild(node, visit)
  }
  visit(body)
  return found
}

/** The classes defining deleteRun in these files, and whether each reaches a body raising PromotedRunError. */
function walk(files: readonly string[], only: (file: string) => boolean): Map<string, boolean> {
  const options = ts.parseJsonConfigFileContent(ts.readConfigFile(join(REPO, 'tsconfig.base.json'), ts.sys.readFile).config, ts.sys, REPO).options
  const program = ts.createProgram(files, { ...options, noEmit: true })
  const checker = program.getTypeChecker()
  const reaches = (start: Callable): boolean => {
    const seen = new Set<ts.Node>()
    const queue: Callable[] = [start]
    for (let fn = queue.shift(); fn !== undefined; fn = queue.shift()) {
      if (fn.body === undefined || seen.has(fn)) continue
      seen.add(fn)
      if (raisesRefusal(fn.body)) return true
      const visit = (node: ts.Node): void => {
        if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
          const target = checker.getResolvedSignature(node)?.declaration
          if (target !== undefined && !ts.isJSDocSignature(target) && !target.getSourceFile().fileName.includes('node_modules')) queue.push(target as Callable)
        }
        ts.forEachChild(node, visit)
      }
      visit(fn.body)
    }
    return false
  }
  const found = new Map<string, boolean>()
  for (const source of program.getSourceFiles()) {
    if (!only(source.fileName)) continue
    const visit = (node: ts.Node): void => {
      if (ts.isClassDeclaration(node) && node.name !== undefined) {
        for (const member of node.members) {
          if (ts.isMethodDeclaration(member) && member.name.getText(source) === 'deleteRun' && member.body !== undefined) {
            found.set(`${source.fileName.replace(`${REPO}/`, '')}#${node.name.text}`, reaches(member))
          }
        }
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  return found
}

const controlDir = mkdtempSync(join(tmpdir(), 'digline-walk-'))
afterAll(() => rmSync(controlDir, { recursive: true, force: true }))

test('every class of the repository that defines deleteRun reaches the baseline check; a class that skips it does not', () => {
  const control = join(controlDir, 'control.ts')
  writeFileSync(
    control,
    `import { DeletePlanner, type DeletePlan } from ${JSON.stringify(join(REPO, 'src/store/file/delete-plan.js'))}
import type { FileResultStore } from ${JSON.stringify(join(REPO, 'src/store/file/store.js'))}
import { unlink } from 'node:fs/promises'

/** Uses the delete's own machinery, but never the plan that holds the baseline check. */
export class SkipsTheCheck {
  constructor(private readonly planner: DeletePlanner) {}
  async deleteRun(tenant: string, suite: string, key: string, plan: DeletePlan): Promise<void> {
    for (const run of await this.planner.secondLook(plan)) if (run.file !== undefined) await unlink(run.file)
    void tenant, suite, key
  }
}

/** Hands the delete to the store: reaches the check through it. */
export class DelegatesToTheStore {
  constructor(private readonly inner: FileResultStore) {}
  deleteRun(tenant: string, suite: string, key: string) {
    return this.inner.deleteRun(tenant, suite, key)
  }
}
`,
  )
  // A class that defines deleteRun says so in its file: those files (and what they import) are the program.
  const repo = [...sources(join(REPO, 'src')), ...sources(join(REPO, 'plugin')), ...sources(join(REPO, 'test'))].filter((file) => readFileSync(file, 'utf8').includes('deleteRun'))
  const found = walk([...repo, control], (file) => file.startsWith(REPO) || file === control)
  const inRepo = [...found].filter(([name]) => !name.startsWith(controlDir))
  expect(inRepo.map(([name]) => name).sort()).toEqual([
    'src/store/file/delete.ts#FileDelete',
    'src/store/file/store.ts#FileResultStore',
    'src/store/postgres/delete.ts#PgDelete',
    'src/store/postgres/store.ts#PostgresStore',
  ])
  for (const [name, reached] of inRepo) expect(reached, `${name} does not reach the baseline check`).toBe(true)
  expect(found.get(`${control}#SkipsTheCheck`)).toBe(false)
  expect(found.get(`${control}#DelegatesToTheStore`)).toBe(true)
})
