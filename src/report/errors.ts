// What the viewer's review mode refuses (docs/adr/0340): a label's POST that is not the page's own.
// Each is answered with its HTTP status and its name, never raised as an exit code.
// A leaf: it imports only the errors base, so src/errors/catalogue.ts can collect it (ADR 0140).
import { DiglineRefusal, type RefusalFamily } from '../errors/base.js'

export class ReviewHostRefusedError extends DiglineRefusal {
  readonly name = 'ReviewHostRefusedError'
}
export class ReviewOriginRefusedError extends DiglineRefusal {
  readonly name = 'ReviewOriginRefusedError'
}
export class ReviewTokenRefusedError extends DiglineRefusal {
  readonly name = 'ReviewTokenRefusedError'
}
export class ReviewBodyTooLargeError extends DiglineRefusal {
  readonly name = 'ReviewBodyTooLargeError'
}
export class ReviewRequestRefusedError extends DiglineRefusal {
  readonly name = 'ReviewRequestRefusedError'
}

export const REPORT_REFUSALS = {
  ReviewHostRefusedError: {
    error: ReviewHostRefusedError,
    when: "A label's POST to `digline view --review` named a Host other than 127.0.0.1:PORT or localhost:PORT (a DNS-rebound page); answered 421, nothing written.",
    next: 'Label from the page the viewer printed (http://127.0.0.1:PORT/).',
  },
  ReviewOriginRefusedError: {
    error: ReviewOriginRefusedError,
    when: "A label's POST came without an Origin header, or from an origin other than the viewer's own page (another site, another port); answered 403, nothing written.",
    next: 'Label from the page the viewer printed (http://127.0.0.1:PORT/).',
  },
  ReviewTokenRefusedError: {
    error: ReviewTokenRefusedError,
    when: "A label's POST did not carry this viewer session's token (x-digline-token), which only the page the viewer serves holds; a restarted viewer has a new one. Answered 403, nothing written.",
    next: 'Reload the page from the running viewer, then label again.',
  },
  ReviewBodyTooLargeError: {
    error: ReviewBodyTooLargeError,
    when: "A label's POST body was larger than 16 KiB; answered 413, nothing read further, nothing written.",
    next: 'Shorten the note (at most 4000 characters), then label again.',
  },
  ReviewRequestRefusedError: {
    error: ReviewRequestRefusedError,
    when: "A label's POST was not a JSON object of { suite, run, case_id, judges, verdict, note } sent as application/json (answered 415 for another content type, 400 otherwise); nothing written.",
    next: 'Label from the page the viewer serves, which sends the label as it should.',
  },
} as const satisfies RefusalFamily
