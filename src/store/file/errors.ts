// What only the file store raises: a directory it cannot read, a promotion lock held, a run path in
// the way.
// A leaf: it imports only the errors base, so src/errors/catalogue.ts can collect it (ADR 0140).
import { DiglineRefusal, type RefusalFamily } from '../../errors/base.js'

export class DirectoryUnreadableError extends DiglineRefusal {
  readonly name = 'DirectoryUnreadableError'
}
export class PromotionInProgressError extends DiglineRefusal {
  readonly name = 'PromotionInProgressError'
}
export class RunPathOccupiedError extends DiglineRefusal {
  readonly name = 'RunPathOccupiedError'
}

export const FILE_STORE_REFUSALS = {
  DirectoryUnreadableError: {
    error: DirectoryUnreadableError,
    when: 'A delete could not look through a directory or path it must see (a runs directory of the tenant, a journal directory), so it removed nothing.',
    next: 'Give the user running digline read access to the path named in the message, then repeat the delete.',
  },
  PromotionInProgressError: {
    error: PromotionInProgressError,
    when: 'Another promotion of the same tenant, by a process that is still alive, held the promotion lock for longer than a promotion waits; nothing was written.',
    next: 'Wait for the process the message names to finish (or end it), then repeat the promote.',
  },
  RunPathOccupiedError: {
    error: RunPathOccupiedError,
    when: "A pending journal's run document path holds something that is not that run's readable document (an empty or broken file, a directory, another run's document): the run is not finished, and the journal is kept.",
    next: 'Move the file named in the message aside, then `digline run --resume KEY --suite S` finishes the run from its journal.',
  },
} as const satisfies RefusalFamily
