// Text to terms: lower case, split on anything that is not a letter or digit, drop stop words, stem.
import { stem } from './stem.js'

export interface Token {
  /** The stemmed form the index uses. */
  term: string
  /** The word as it appeared (lower-cased), for explanations. */
  surface: string
}

const STOP_WORDS = new Set(
  `a about after again all also am an and any are as at be been before being but by can could did do does
  doing don for from get got had has have having he her here hi his how i if in into is it its just me
  my no not of on once only or our ours out over please so some still than thank thanks that the their
  them then there these they this those to too up us very was we were what when where which while who
  why will with would you your yours isn t s m ve ll d re`.split(/\s+/),
)

export function tokenize(text: string): Token[] {
  const tokens: Token[] = []
  const folded = text.toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '')
  for (const surface of folded.split(/[^\p{L}\p{N}]+/u)) {
    if (surface.length < 2 || STOP_WORDS.has(surface)) continue
    tokens.push({ term: stem(surface), surface })
  }
  return tokens
}
