// The two pieces of scheduling the driver needs: a bounded pool of workers, and a queue that runs
// tasks one at a time.

/**
 * Runs `work` over `items` with at most `limit` in flight. A worker takes its next item only after
 * its previous `work` settled, so whatever `work` awaits last (the per-case hook) holds its slot.
 * Once `stopped()` is true or a `work` throws, no new item starts; the ones in flight settle, and
 * the pool then rejects with the first error (or resolves, if it was only stopped).
 */
export async function runPool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>, stopped: () => boolean = () => false): Promise<void> {
  let next = 0
  let failure: { error: unknown } | undefined
  const worker = async (): Promise<void> => {
    while (failure === undefined && !stopped() && next < items.length) {
      const item = items[next++]!
      try {
        await work(item)
      } catch (error) {
        failure ??= { error }
      }
    }
  }
  const width = Math.max(1, Math.min(Math.floor(limit), items.length))
  await Promise.all(Array.from({ length: width }, worker))
  if (failure !== undefined) throw failure.error
}

/** Runs tasks one after another in the order they were handed in; a failed task does not block the next. */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve()

  run<R>(task: () => R | Promise<R>): Promise<R> {
    const result = this.tail.then(task)
    this.tail = result.then(
      () => undefined,
      () => undefined,
    )
    return result
  }
}
