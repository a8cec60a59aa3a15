// The generated .digline/.gitignore, checked by git itself: runs, journal legs, removal records and
// the response cache are ignored; baselines and the register are committed.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FileResultStore } from '../../src/store/file/store.js'
import { makeRun } from '../helpers/make-run.js'

/** Whether git ignores the path: `git check-ignore` exits 0 when it does, 1 when it does not. */
function ignored(repo: string, path: string): boolean {
  try {
    execFileSync('git', ['check-ignore', '--quiet', '--no-index', path], { cwd: repo, stdio: 'pipe' })
    return true
  } catch (error) {
    if ((error as { status?: number }).status === 1) return false
    throw error
  }
}

describe('the generated .digline/.gitignore', () => {
  let repo: string
  beforeAll(async () => {
    repo = mkdtempSync(join(tmpdir(), 'digline-git-'))
    execFileSync('git', ['init', '--quiet'], { cwd: repo })
    await new FileResultStore({ root: join(repo, '.digline') }).writeRun(makeRun({ tenant: 't', suite: 's' }))
    const crashLeftovers = ['.digline/..gitignore.41.ab12.tmp', '.digline/t/baselines/.s.json.41.ab12.tmp']
    for (const path of [
      '.digline/t/runs/s/k.json',
      '.digline/t/runs/s/.pending/x.jsonl',
      '.digline/t/removed/x',
      '.digline/t/cache/s/c/k.json',
      '.digline/t/baselines/s.json',
      '.digline/t/register.jsonl',
      ...crashLeftovers,
    ]) {
      mkdirSync(dirname(join(repo, path)), { recursive: true })
      writeFileSync(join(repo, path), '{}\n')
    }
  })
  afterAll(() => rmSync(repo, { recursive: true, force: true }))

  it.each([
    '.digline/t/runs/s/k.json',
    '.digline/t/runs/s/.pending/x.jsonl',
    '.digline/t/removed/x',
    '.digline/t/cache/s/c/k.json',
    '.digline/..gitignore.41.ab12.tmp',
    '.digline/t/baselines/.s.json.41.ab12.tmp',
  ])('ignores %s', (path) => {
    expect(ignored(repo, path)).toBe(true)
  })

  it.each(['.digline/t/baselines/s.json', '.digline/t/register.jsonl', '.digline/.gitignore'])('does not ignore %s', (path) => {
    expect(ignored(repo, path)).toBe(false)
  })

  it('leaves exactly the baselines, the register and the .gitignore for git to add', () => {
    const untracked = execFileSync('git', ['ls-files', '--others', '--exclude-standard'], { cwd: repo, encoding: 'utf8' })
    expect(untracked.trim().split('\n').sort()).toEqual(['.digline/.gitignore', '.digline/t/baselines/s.json', '.digline/t/register.jsonl'])
  })
})
