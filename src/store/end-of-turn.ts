// Once a journal leg's appends overlap, a group commit starts writing at the end of the event loop's
// turn in which its first record came, not right after that record: the answers read in the same turn
// (several sockets ready at once) then share its write and its fsync, and no slot waits past that turn
// (ADR 0557). The timer is the one node:timers exports, so a suite's fake timers, which replace the
// global, cannot hold it.
import { setImmediate } from 'node:timers'

export function endOfTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}
