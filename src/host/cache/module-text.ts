// What the response cache reads in a module's text (docs/adr/0150): the specifiers it imports, and, in
// the suite file, the spans that only judge answers (a scorer, a threshold). A small tokenizer that
// knows strings, template literals, comments and regular expressions is enough for both: it never
// runs or parses the code, and what it cannot tell apart it keeps in the hash (a wasted call at
// worst, never a stale answer).

interface Token {
  kind: 'name' | 'string' | 'punct' | 'other'
  value: string
  start: number
  end: number
}

/** After these a `/` starts a regular expression rather than a division. */
const BEFORE_REGEX_WORDS = new Set(['return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await'])

function tokenize(text: string): Token[] {
  const tokens: Token[] = []
  // What each open brace closes: an object or block, or the `${` of a template literal.
  const braces: ('block' | 'template')[] = []
  let i = 0
  const regexMayStart = () => {
    const last = tokens[tokens.length - 1]
    if (last === undefined) return true
    if (last.kind === 'name') return BEFORE_REGEX_WORDS.has(last.value)
    if (last.kind === 'string' || last.kind === 'other') return false
    return !(last.value === ')' || last.value === ']' || last.value === '}')
  }
  /** Scans template text from i (just after ` or the } of a ${…}) to its end or to the next ${. */
  const templateText = (from: number) => {
    let j = from
    while (j < text.length) {
      if (text[j] === '\\') j += 2
      else if (text[j] === '`') return (tokens.push({ kind: 'other', value: 'template', start: from, end: j + 1 }), j + 1)
      else if (text[j] === '$' && text[j + 1] === '{') {
        braces.push('template')
        tokens.push({ kind: 'punct', value: '${', start: j, end: j + 2 })
        return j + 2
      } else j++
    }
    return j
  }
  while (i < text.length) {
    const c = text[i]!
    if (/\s/.test(c)) i++
    else if (c === '/' && text[i + 1] === '/') i = text.indexOf('\n', i) === -1 ? text.length : text.indexOf('\n', i)
    else if (c === '/' && text[i + 1] === '*') i = text.indexOf('*/', i + 2) === -1 ? text.length : text.indexOf('*/', i + 2) + 2
    else if (c === '"' || c === "'") {
      let j = i + 1
      let value = ''
      while (j < text.length && text[j] !== c && text[j] !== '\n') {
        if (text[j] === '\\') {
          value += text[j + 1] ?? ''
          j += 2
        } else value += text[j++]
      }
      tokens.push({ kind: 'string', value, start: i, end: j + 1 })
      i = j + 1
    } else if (c === '`') i = templateText(i + 1)
    else if (c === '/' && regexMayStart()) {
      let j = i + 1
      let inClass = false
      while (j < text.length && text[j] !== '\n' && (inClass || text[j] !== '/')) {
        if (text[j] === '\\') j++
        else if (text[j] === '[') inClass = true
        else if (text[j] === ']') inClass = false
        j++
      }
      j++
      while (j < text.length && /[a-z]/i.test(text[j]!)) j++
      tokens.push({ kind: 'other', value: 'regex', start: i, end: j })
      i = j
    } else if (/[A-Za-z_$\u0080-\uffff]/.test(c)) {
      let j = i + 1
      while (j < text.length && /[\w$\u0080-\uffff]/.test(text[j]!)) j++
      tokens.push({ kind: 'name', value: text.slice(i, j), start: i, end: j })
      i = j
    } else if (/[0-9]/.test(c)) {
      let j = i + 1
      while (j < text.length && /[\w.]/.test(text[j]!)) j++
      tokens.push({ kind: 'other', value: 'number', start: i, end: j })
      i = j
    } else if (c === '}' && braces[braces.length - 1] === 'template') {
      braces.pop()
      tokens.push({ kind: 'punct', value: '}', start: i, end: i + 1 })
      i = templateText(i + 1)
    } else {
      if (c === '{') braces.push('block')
      if (c === '}') braces.pop()
      tokens.push({ kind: 'punct', value: c, start: i, end: i + 1 })
      i++
    }
  }
  return tokens
}

/** The string specifiers of static imports and re-exports, bare side-effect imports, dynamic imports and require calls (literal strings only). */
export function importSpecifiers(text: string): string[] {
  const tokens = tokenize(text)
  const out: string[] = []
  tokens.forEach((t, i) => {
    const next = tokens[i + 1]
    const after = tokens[i + 2]
    if (t.kind !== 'name' || next === undefined) return
    if ((t.value === 'from' || t.value === 'import') && next.kind === 'string') out.push(next.value)
    else if ((t.value === 'import' || t.value === 'require') && next.value === '(' && after?.kind === 'string') out.push(after.value)
  })
  return out
}

/**
 * The suite file's text with the values that cannot change an answer left out: in the object literal
 * passed to `evalSuite({…})`, the keys another part of the key covers (cases: the input; samples: the
 * sample index; target.config: the target config) or that only judge answers (scorers, thresholds, …).
 * Anything else, and any definition not written inline, stays in the hash.
 */
export function blankJudging(text: string): string {
  const tokens = tokenize(text)
  const spans: [number, number][] = []
  for (let i = 0; i + 2 < tokens.length; i++) {
    if (tokens[i]!.kind === 'name' && tokens[i]!.value === 'evalSuite' && tokens[i + 1]!.value === '(' && tokens[i + 2]!.value === '{')
      i = blankObject(tokens, i + 2, OUTSIDE_THE_TARGET, spans)
  }
  let out = ''
  let at = 0
  for (const [start, end] of spans) {
    out += `${text.slice(at, start)}…`
    at = end
  }
  return out + text.slice(at)
}

/** Keys of a suite definition whose values another part of the cache key covers, or that never change an answer. */
const OUTSIDE_THE_TARGET = new Set([
  'name',
  'cases',
  'samples',
  'scorers',
  'thresholds',
  'tolerances',
  'minAgreement',
  'budget',
  'recordResponses',
  'borderline',
  'cache',
  'toolReplay',
  'concurrency',
  'timeout',
])
const IN_THE_TARGET = new Set(['config'])

/** Walks the object literal opened at tokens[open]; records the value spans of `keys` (and of target.config); returns the index of its `}`. */
function blankObject(tokens: Token[], open: number, keys: ReadonlySet<string>, spans: [number, number][]): number {
  let i = open + 1
  while (i < tokens.length && tokens[i]!.value !== '}') {
    const key = tokens[i]!
    const isKey = (key.kind === 'name' || key.kind === 'string') && tokens[i + 1]?.value === ':'
    const valueStart = isKey ? i + 2 : i
    const end = valueEnd(tokens, valueStart)
    if (isKey && end > valueStart) {
      if (keys.has(key.value)) spans.push([tokens[valueStart]!.start, tokens[end - 1]!.end])
      else if (keys === OUTSIDE_THE_TARGET && key.value === 'target' && tokens[valueStart]!.value === '{' && tokens[end - 1]!.value === '}')
        blankObject(tokens, valueStart, IN_THE_TARGET, spans)
    }
    i = end
    if (tokens[i]?.value === ',') i++
    else if (tokens[i]?.value !== '}') i++
  }
  return i
}

/** The index just past the value that starts at tokens[from]: at the next `,` or closing bracket of its own level. */
function valueEnd(tokens: Token[], from: number): number {
  let depth = 0
  let j = from
  for (; j < tokens.length; j++) {
    const v = tokens[j]!.kind === 'punct' ? tokens[j]!.value : ''
    if (v === '(' || v === '[' || v === '{' || v === '${') depth++
    else if (v === ')' || v === ']' || v === '}') {
      if (depth === 0) break
      depth--
    } else if (v === ',' && depth === 0) break
  }
  return j
}
