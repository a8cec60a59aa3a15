// SPEC §7: a secret of the target's config or environment is redacted wherever an error message
// carries it, including a prefix of it that a server echoes back.
import { describe, expect, it } from 'vitest'
import { execute } from '../../../src/driver/execute.js'
import { redactor } from '../../../src/models/redaction.js'
import { resolveSuite } from '../../../src/suite/resolve-suite.js'

const KEY = 'sk-live-SUPERSECRET-0123456789abcdef'

describe('redactor', () => {
  const redact = redactor([KEY], {})

  it('redacts the whole secret, every time it occurs', () => {
    expect(redact(`key ${KEY} and again ${KEY}.`)).toBe('key [redacted] and again [redacted].')
  })

  it('redacts an echoed prefix of 8 characters or more, up to where the echo departs from the secret', () => {
    expect(redact('your key prefix sk-live-SUPER... is not valid')).toBe('your key prefix [redacted]... is not valid')
    expect(redact('key sk-live-SUPERSECRET-01****cdef')).toBe('key [redacted]****cdef')
    expect(redact('sk-live-')).toBe('[redacted]')
  })

  it('leaves a shorter echo, other text and short secrets alone', () => {
    expect(redact('keys look like sk-live and sk-test-x')).toBe('keys look like sk-live and sk-test-x')
    expect(redactor(['short'], {})('a short note')).toBe('a short note')
  })

  it('reads the secrets of the environment from variables named like keys', () => {
    const env = { OPENAI_API_KEY: KEY, GITHUB_TOKEN: 'ghp_abcdefghijklmnop', MY_SECRET: 'hunter2hunter2', PATH: '/usr/local/bin:/usr/bin' }
    const fromEnv = redactor([], env)
    expect(fromEnv('a sk-live-SUPERS b ghp_abcdefgh c hunter2hunter d /usr/local/bin')).toBe('a [redacted] b [redacted] c [redacted] d /usr/local/bin')
  })
})

describe('the driver', () => {
  it("redacts the environment's keys, and echoed prefixes of them, from a case's error message", async () => {
    const name = 'DIGLINE_TEST_API_KEY'
    process.env[name] = KEY
    try {
      const target = () => {
        throw new Error(`HTTP 400: your key prefix ${KEY.slice(0, 13)}... is not enabled; full key ${KEY}`)
      }
      const { results } = await execute({ suite: resolveSuite({ name: 's', cases: [{ id: 'a', input: 1 }], target, scorers: [() => true] }) })
      expect(results[0]!.error).toEqual({ cause: 'target', message: 'sample 0 of 1: HTTP 400: your key prefix [redacted]... is not enabled; full key [redacted]' })
    } finally {
      delete process.env[name]
    }
  })
})
