import { applyInit, planInit } from '../../host/index.js'
import { parseCommand } from '../parse.js'
import type { Command } from '../command.js'

export const initCommand: Command = {
  name: 'init',
  help: `Usage: npx digline init [--tenant T]

Writes into the current directory, refusing (and writing nothing) when any of them exists, or when
another vitest.config.* or vite.config.* is there:

  vitest.config.ts                the digline() plugin (vitest.config.mts when package.json is not
                                  "type": "module", so a CommonJS package loads it as ESM)
  evals/capitals.eval.ts          an example suite reading its cases from the dataset
  evals/capitals.jsonl            the dataset, one case per line
  .digline/.gitignore             what the store keeps out of git
  .github/workflows/digline.yml   a GitHub workflow that runs the gate

  --tenant T   the tenant (default: the package name, as one safe path segment)`,
  async run(argv, io) {
    const { values } = parseCommand('init', argv, { tenant: { type: 'string' }, help: { type: 'boolean', short: 'h' } })
    if (values.help) return (io.stdout(initCommand.help), 0)
    const plan = planInit(io.cwd, values.tenant)
    applyInit(plan)
    io.stdout(`digline init wrote, for tenant ${plan.tenant}:`)
    for (const file of plan.files) io.stdout(`  ${file.path}`)
    if (plan.commonJs) io.stdout('The package is CommonJS, so the config is vitest.config.mts: Vite loads it as ESM, and package.json is left as it is.')
    io.stdout('')
    io.stdout('Next:')
    for (const command of plan.next) io.stdout(`  ${command}`)
    return 0
  },
}
