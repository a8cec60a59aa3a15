import { InvalidOptionsError } from './errors.js'

const CREATED_AT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.\d{6}Z$/
// What DIGLINE_CREATED_AT may say: 1 to 6 fraction digits or none (`new Date().toISOString()` gives 3), UTC.
const CREATED_AT_INPUT = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?Z$/
const KEY = /^(\d{8}T\d{12}Z)-([0-9a-f]{12})$/

/** Now, as ISO-8601 UTC with microseconds. */
export function createdAtNow(): string {
  const micros = BigInt(Math.floor((performance.timeOrigin + performance.now()) * 1000))
  const millis = Number(micros / 1000n)
  const iso = new Date(millis).toISOString() // …:56.123Z
  const extra = String(micros % 1000n).padStart(3, '0')
  return `${iso.slice(0, -1)}${extra}Z`
}

/** ISO-8601 UTC with microseconds, naming an instant that exists: no 2026-02-30, no T24:00, no leap second. */
export function isCreatedAt(value: string): boolean {
  const parts = CREATED_AT.exec(value)
  if (parts === null) return false
  const [year, month, day, hour, minute, second] = parts.slice(1, 7).map(Number) as [number, number, number, number, number, number]
  return month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month) && hour <= 23 && minute <= 59 && second <= 59
}

function daysIn(year: number, month: number): number {
  // Day 0 of the next month is the last day of this one. Not Date.UTC: it reads years 0..99 as 1900..1999.
  const date = new Date(0)
  date.setUTCFullYear(year, month, 0)
  return date.getUTCDate()
}

/** DIGLINE_CREATED_AT when set (validated), otherwise now. */
export function launchCreatedAt(env: NodeJS.ProcessEnv = process.env): string {
  const given = env.DIGLINE_CREATED_AT
  if (given === undefined || given === '') return createdAtNow()
  const fixed = normalisedCreatedAt(given)
  if (fixed === undefined || !isCreatedAt(fixed)) {
    throw new InvalidOptionsError(
      fixed !== undefined
        ? `DIGLINE_CREATED_AT=${JSON.stringify(given)} is not a real instant (no such day or time of day in UTC)`
        : `DIGLINE_CREATED_AT=${JSON.stringify(given)} is not ISO-8601 UTC (YYYY-MM-DDTHH:MM:SS with up to 6 fraction digits and Z)`,
      'Set it to a real instant like 2026-11-29T22:39:56.123456Z (or the output of `node -e "console.log(new Date().toISOString())"`), or unset it, then run `vitest run` again.',
      ['DIGLINE_CREATED_AT'],
    )
  }
  return fixed
}

/** An ISO-8601 UTC instant with up to 6 fraction digits, as created_at writes it (six digits), or undefined. */
export function normalisedCreatedAt(value: string): string | undefined {
  const parts = CREATED_AT_INPUT.exec(value)
  if (parts === null) return undefined
  return `${parts[1]}.${(parts[2] ?? '').padEnd(6, '0')}Z`
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
