import { InvalidOptionsError } from '../errors.js'

const CREATED_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/
const KEY = /^(\d{8}T\d{12}Z)-([0-9a-f]{12})$/

/** Now, as ISO-8601 UTC with microseconds. */
export function createdAtNow(): string {
  const micros = BigInt(Math.floor((performance.timeOrigin + performance.now()) * 1000))
  const millis = Number(micros / 1000n)
  const iso = new Date(millis).toISOString() // …:56.123Z
  const extra = String(micros % 1000n).padStart(3, '0')
  return `${iso.slice(0, -1)}${extra}Z`
}

export function isCreatedAt(value: string): boolean {
  return CREATED_AT.test(value) && !Number.isNaN(Date.parse(value.slice(0, 23) + 'Z'))
}

/** DIGLINE_CREATED_AT when set (validated), otherwise now. */
export function launchCreatedAt(env: NodeJS.ProcessEnv = process.env): string {
  const fixed = env.DIGLINE_CREATED_AT
  if (fixed === undefined || fixed === '') return createdAtNow()
  if (!isCreatedAt(fixed)) {
    throw new InvalidOptionsError(
      `DIGLINE_CREATED_AT=${JSON.stringify(fixed)} is not ISO-8601 UTC with microseconds`,
      'Set it like 2026-11-29T22:39:56.123456Z, or unset it.',
      ['DIGLINE_CREATED_AT'],
    )
  }
  return fixed
}

export function slugCreatedAt(createdAt: string): string {
  return createdAt.replace(/[-:.]/g, '')
}

export function keyFor(createdAt: string, configHash: string): string {
  return `${slugCreatedAt(createdAt)}-${configHash}`
}

export function isKey(value: string): boolean {
  return KEY.test(value)
}
