// Secrets out of error messages: a key the adapter was given, and the value of every environment
// variable named like one, wherever a message carries it — whole, or as a prefix a server echoes
// back ("your key sk-live-SUPER…"). The driver applies the environment part to every case error.

const SECRET_NAME = /(API_?KEY|TOKEN|SECRET|PASSWORD)$/i

/** Secrets shorter than this are not looked for (they would match ordinary words). */
const MIN_SECRET = 8
/** An echoed prefix this long or longer is redacted; a shorter one says too little to matter. */
const MIN_ECHO = 8

export const REDACTED = '[redacted]'

/**
 * Replaces every occurrence of each secret, and every run of at least MIN_ECHO characters that
 * starts one, with [redacted]: the secrets given, and the values of environment variables named
 * like keys (an SDK may have read one on its own).
 */
export function redactor(secrets: readonly (string | undefined)[], env: NodeJS.ProcessEnv = process.env): (text: string) => string {
  const fromEnv = Object.entries(env)
    .filter(([name]) => SECRET_NAME.test(name))
    .map(([, value]) => value)
  const present = [...new Set([...secrets, ...fromEnv])].filter((s): s is string => typeof s === 'string' && s.length >= MIN_SECRET)
  // Longest first, so a secret that starts another is not cut in the middle of the longer one.
  present.sort((a, b) => b.length - a.length)
  return (text) => present.reduce(redactEchoes, text)
}

function redactEchoes(text: string, secret: string): string {
  const head = secret.slice(0, MIN_ECHO)
  let out = ''
  let from = 0
  for (let at = text.indexOf(head); at !== -1; at = text.indexOf(head, from)) {
    let end = at + head.length
    while (end - at < secret.length && text[end] === secret[end - at]) end++
    out += `${text.slice(from, at)}${REDACTED}`
    from = end
  }
  return out + text.slice(from)
}
