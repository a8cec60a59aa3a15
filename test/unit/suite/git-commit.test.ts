// The commit a run records: git's own answer inside a work tree, nothing (and no git spawned) outside one.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { gitCommit, mayBeInGit } from '../../../src/suite/git-commit.js'

const dirs: string[] = []
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'digline-git-'))
  dirs.push(dir)
  return dir
}

test('outside any work tree there is no commit, and git is not asked', async () => {
  const dir = tempDir()
  expect(mayBeInGit(dir, {})).toBe(false)
  expect(mayBeInGit(dir, { GIT_DIR: join(dir, 'elsewhere') })).toBe(true)
  expect(await gitCommit(dir)).toBeUndefined()
})

test('inside a work tree: the commit, then with -dirty once a tracked file changes; found from a folder below the root', async () => {
  const dir = tempDir()
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir, encoding: 'utf8' }).trim()
  git('init', '-q')
  writeFileSync(join(dir, 'a.txt'), 'one\n')
  git('add', 'a.txt')
  git('commit', '-q', '-m', 'first')
  const head = git('rev-parse', 'HEAD')
  const below = join(dir, 'evals')
  mkdirSync(below)
  expect(mayBeInGit(below, {})).toBe(true)
  expect(await gitCommit(below)).toBe(head)
  writeFileSync(join(dir, 'a.txt'), 'two\n')
  expect(await gitCommit(dir)).toBe(`${head}-dirty`)
})
