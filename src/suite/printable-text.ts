// Text that a suite, a target or a judge wrote (a reason, an error message, a model id) as a terminal
// or a markdown page may show it: every control character is written as its escape, so an ESC, CSI or
// OSC sequence in a judge's reasoning cannot move the cursor, erase lines, retitle the window or write
// the clipboard, and a bidi override cannot reorder what is read. Newlines and tabs stay: they cannot
// reach back over earlier output. The one function every such sink calls (docs/adr/0153).

// C0 controls but \t and \n, DEL, C1 controls, and the invisible reordering marks (bidi embeddings,
// overrides and isolates, line and paragraph separators).
// eslint-disable-next-line no-control-regex -- matching control characters is this function's whole purpose
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g

function escapeOf(char: string): string {
  const code = char.codePointAt(0)!
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`
}

/** `text` with every control character written as `\xNN` or `\uNNNN`; plain text comes back as it was. */
export function printable(text: string): string {
  return text.replace(CONTROL, escapeOf)
}
