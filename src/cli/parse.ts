// Argument parsing for every command: node:util parseArgs, with refusals that name the command.
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { UsageError } from '../host/index.js'

export type Options = NonNullable<ParseArgsConfig['options']>

export const PROJECT_OPTIONS = {
  config: { type: 'string' },
  tenant: { type: 'string' },
  store: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Options

type Parsed<O extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: O; allowPositionals: boolean; strict: true }>>

export function parseCommand<O extends Options>(command: string, argv: string[], options: O, allowPositionals = false): Parsed<O> {
  try {
    return parseArgs({ args: argv, options, allowPositionals, strict: true }) as Parsed<O>
  } catch (error) {
    throw new UsageError(`digline ${command}: ${(error as Error).message}`, `Run \`digline ${command} --help\`.`)
  }
}

export function requireFlag(command: string, name: string, value: string | undefined): string {
  if (value === undefined || value === '') throw new UsageError(`digline ${command}: --${name} is required`, `Run \`digline ${command} --help\`.`, [`--${name}`])
  return value
}
