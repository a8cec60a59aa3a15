// The composite action at the repository root, read as the runner reads its steps: the gate's exit
// code is kept while the report, its upload and the comment still run, and the last step ends with
// that code. The gate's and the last step's scripts are run with bash, as the runner runs them.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'

interface Step {
  id: string
  if?: string
  uses?: string
  run: string
  env: Record<string, string>
}

// Just enough YAML for this file's steps: `- id:` starts a step; `key: value` and `run: |` blocks.
function stepsOf(yaml: string): Step[] {
  const body = yaml.split('\n  steps:\n')[1]!
  return body
    .split(/\n {4}- /)
    .map((chunk) => chunk.replace(/^ {4}- /, ''))
    .map((chunk) => {
      const lines = chunk.split('\n')
      const step: Step = { id: '', run: '', env: {} }
      let block: 'run' | 'env' | null = null
      for (const line of lines) {
        const field = /^(?: {6})?([a-z-]+): ?(.*)$/.exec(line)
        if (block === 'run' && line.startsWith('        ')) {
          step.run += `${line.slice(8)}\n`
          continue
        }
        if (block === 'env' && line.startsWith('        ')) {
          const [key, ...value] = line.trim().split(': ')
          step.env[key!] = value.join(': ')
          continue
        }
        block = null
        if (field === null) continue
        const [, key, value] = field
        if (key === 'id') step.id = value!
        else if (key === 'if') step.if = value
        else if (key === 'uses') step.uses = value
        else if (key === 'env') block = 'env'
        else if (key === 'run' && value === '|') block = 'run'
        else if (key === 'run') step.run = `${value}\n`
      }
      return step
    })
}

const steps = stepsOf(readFileSync(new URL('../../../action.yml', import.meta.url), 'utf8'))
const byId = (id: string) => steps.find((s) => s.id === id)!

function bash(script: string, env: Record<string, string>) {
  return spawnSync('bash', ['-e', '-c', script], { env: { PATH: process.env.PATH!, ...env }, encoding: 'utf8' })
}

test('the gate, the report, its upload, the comment, then the gate’s exit code, each after a failed gate too', () => {
  expect(steps.map((s) => s.id)).toEqual(['created-at', 'gate', 'report', 'upload', 'comment', 'verdict'])
  for (const id of ['report', 'upload', 'comment', 'verdict']) expect(byId(id).if, id).toMatch(/^always\(\)/)
  expect(byId('upload').uses).toBe('actions/upload-artifact@v4')
  expect(byId('comment').run).toContain('npx digline comment')
  expect(byId('comment').env).toMatchObject({ GITHUB_TOKEN: '${{ inputs.github-token }}', DIGLINE_REPORT_URL: '${{ steps.upload.outputs.artifact-url }}' })
  expect(byId('gate').env.DIGLINE_CREATED_AT).toBe(byId('comment').env.DIGLINE_CREATED_AT)

  const dir = mkdtempSync(join(tmpdir(), 'digline-action-'))
  for (const code of [0, 1, 2]) {
    const output = join(dir, `gate-${code}`)
    writeFileSync(output, '')
    const gate = bash(byId('gate').run, { GITHUB_OUTPUT: output, DIGLINE_GATE: `echo gate ran; exit ${code}` })
    expect(gate.status, gate.stderr).toBe(0)
    expect(gate.stdout).toContain('gate ran')
    const kept = /^exit-code=(\d+)$/m.exec(readFileSync(output, 'utf8'))![1]!
    expect(kept).toBe(String(code))
    expect(bash(byId('verdict').run, { DIGLINE_GATE_EXIT: kept }).status).toBe(code)
  }
  // the gate step never ran: the action does not pass
  expect(bash(byId('verdict').run, { DIGLINE_GATE_EXIT: '' }).status).toBe(2)
})
