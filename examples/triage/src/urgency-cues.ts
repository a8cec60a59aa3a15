// Phrases that make a ticket more or less urgent than its nearest neighbours suggest: how many people
// are hit, whether production or an attacker is involved, or whether it is a wish or a how-to.
// A lexicon, so it misses what it was not told ("my eyes would thank you" is not a cue).

export interface UrgencyCues {
  /** Cues that push towards P1, as they matched. */
  raise: string[]
  /** Cues that push towards P4, as they matched. */
  lower: string[]
}

const RAISE: readonly RegExp[] = [
  /\b(everyone|everybody|nobody|no one)\b/,
  /\b(all|every|none) (of )?(our |the )?(users|customers|accounts|requests|pages|workspaces|staff)\b/,
  /\b(whole|entire) (team|company|office|org|organisation|organization|platform)\b/,
  /\bproduction\b/,
  /\b(urgent|urgently|asap|immediately|right now)\b/,
  /\b(hacked|compromised|breach|ransomware|stolen)\b/,
  /\b(can't|cannot|can not) (access|log in|login|get into)\b/,
]

const LOWER: readonly RegExp[] = [
  /\b(would be (nice|great|useful|awesome)|it would (help|be great))\b/,
  /\b(any plans|any chance|on the roadmap|is it possible|would it be possible)\b/,
  /\b(suggestion|idea|feature request|wish)\b/,
  /^(how (do|can) (i|we)|where (do|can) (i|we))\b/,
  /\b(when you get a chance|no rush|not urgent)\b/,
]

export function urgencyCues(text: string): UrgencyCues {
  const lower = text.toLowerCase().replace(/[’']/g, "'")
  const hits = (patterns: readonly RegExp[]) => patterns.map((p) => p.exec(lower)?.[0]).filter((m): m is string => m !== undefined)
  return { raise: hits(RAISE), lower: hits(LOWER) }
}
