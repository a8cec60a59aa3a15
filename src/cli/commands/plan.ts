import { UsageError } from '../../host/index.js'
import { openProject } from '../../host/index.js'
import { formatPlan } from '../../host/index.js'
import { planSuite } from '../../host/index.js'
import { parseCommand, requireFlag, PROJECT_OPTIONS } from '../parse.js'
import { PROJECT_HELP, type Command } from '../command.js'

const DEFAULT_SEED = 42

export const planCommand: Command = {
  name: 'plan',
  help: `Usage: digline plan --suite S --detect D [--power P] [--seed N] [--json]

Sizes suite S from its baseline's per-case results (and its latest runs under the same rules):
how many cases, at 1, 3, 5 and the suite's own samples per case, a run needs so that the pass-rate
gate catches a drop of D (0.05 = 5 points) in P of the runs that have it, and how often the gate
then fires on a run that did not change (its false alarms). It also says the smallest rise of cost
per case (or tokens, without prices) the suite as it is would catch. The figures come from a seeded
simulation through the gate's own rule; the seed is printed, and the same seed gives the same plan.
Exit 0, or 64 refused (no baseline, bad numbers).

  --suite S        the suite (required)
  --detect D       the drop of the pass rate to catch, 0 < D < 1 (required)
  --power P        the share of such runs to flag, 0 < P < 1 (default 0.8)
  --seed N         the simulation's seed, an integer ≥ 0 (default ${DEFAULT_SEED})
  --json           one JSON document on stdout

${PROJECT_HELP}`,
  async run(argv, io) {
    const { values } = parseCommand('plan', argv, {
      ...PROJECT_OPTIONS,
      suite: { type: 'string' },
      detect: { type: 'string' },
      power: { type: 'string' },
      seed: { type: 'string' },
      json: { type: 'boolean' },
    })
    if (values.help) return (io.stdout(planCommand.help), 0)
    const suite = requireFlag('plan', 'suite', values.suite)
    const detect = fraction('detect', requireFlag('plan', 'detect', values.detect))
    const power = values.power === undefined ? 0.8 : fraction('power', values.power)
    const seed = values.seed === undefined ? DEFAULT_SEED : seedOf(values.seed)
    const { settings, store } = await openProject(io.cwd, values, io.env)
    const plan = await planSuite(store, settings.tenant, suite, { detect, power, seed })
    io.stdout(values.json ? JSON.stringify(plan, null, 2) : formatPlan(plan))
    return 0
  },
}

function fraction(flag: string, text: string): number {
  const value = Number(text)
  if (text.trim() === '' || !Number.isFinite(value) || value <= 0 || value >= 1) {
    throw new UsageError(`digline plan: --${flag} ${text} is not a number between 0 and 1 (exclusive)`, `Pass --${flag} as a fraction, e.g. --${flag} 0.05.`, [`--${flag}`])
  }
  return value
}

function seedOf(text: string): number {
  const value = Number(text)
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value > 0xffffffff) {
    throw new UsageError(`digline plan: --seed ${text} is not an integer from 0 to 4294967295`, 'Pass --seed as a whole number, e.g. --seed 42.', ['--seed'])
  }
  return value
}
