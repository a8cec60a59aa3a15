// Control characters in text from a suite, a target or a judge are escaped at every sink (issue 23 item 8).
import { describe, expect, it } from 'vitest'
import { printable } from '../../../src/suite/printable-text.js'
import { formatCaseLines } from '../../../src/host/judge/format-outcome.js'

const ESC = '\u001b'

describe('printable', () => {
  it('writes every control character as its escape and leaves plain text, newlines and tabs alone', () => {
    expect(printable(`a${ESC}[1A${ESC}[2K${ESC}]52;c;eA==\u0007\r\u0000\u007f\u009b\u202e\u2028z`)).toBe('a\\x1b[1A\\x1b[2K\\x1b]52;c;eA==\\x07\\x0d\\x00\\x7f\\x9b\\u202e\\u2028z')
    expect(printable('plain — text, é 你好 🙂\n\tnext')).toBe('plain — text, é 你好 🙂\n\tnext')
  })

  it('a case line shows a reason with a CSI sequence as text', () => {
    const [line] = formatCaseLines([{ case_id: 'c1', verdict: 'fail', score: 0, reason: `x${ESC}[1Ay` }])
    expect(line).toContain('x\\x1b[1Ay')
    expect(line!.replace(/\u001b\[[0-9;]*m/g, '')).not.toContain(ESC)
  })
})
