// The in-flight cap's bookkeeping: per pool (one provider endpoint), how many attempts are in
// flight, who waits for a slot, and what each attempt came to. The launch-wide slot server and the
// process-local fallback both keep one.

/** How an attempt ended: answered, tried again (with the reason), or the call failed for good. */
export type AttemptOutcome = 'ok' | `retry:${string}` | 'gave-up' | 'failed' | 'aborted'

export interface PoolSummary {
  pool: string
  /** The smallest cap any caller asked for. */
  cap: number
  /** The most attempts ever in flight at once. */
  peak: number
  calls: number
  attempts: number
  /** Attempts that had to wait for a slot. */
  waited: number
  retried: Record<string, number>
  gaveUp: number
  failed: number
}

interface Waiter {
  ticket: number
  cap: number
  grant(): void
}

interface Pool extends PoolSummary {
  inFlight: number
  queue: Waiter[]
}

export class SlotBook {
  private readonly pools = new Map<string, Pool>()
  private readonly held = new Map<number, Pool>()
  private readonly waiting = new Map<number, Pool>()
  private nextTicket = 1

  /** Asks for a slot; `grant` is called (now or later) once it is held. Returns the ticket to release or cancel. */
  acquire(pool: string, cap: number, attempt: number, grant: () => void): number {
    const p = this.pool(pool)
    const ticket = this.nextTicket++
    p.cap = Math.min(p.cap, cap)
    p.attempts++
    if (attempt === 1) p.calls++
    if (p.inFlight < cap && p.queue.length === 0) {
      this.hold(p, ticket)
      grant()
    } else {
      p.waited++
      p.queue.push({ ticket, cap, grant })
      this.waiting.set(ticket, p)
    }
    return ticket
  }

  /** Gives up a wait that was not granted yet (the caller was aborted). */
  cancel(ticket: number): void {
    const p = this.waiting.get(ticket)
    if (p !== undefined) {
      this.waiting.delete(ticket)
      p.queue = p.queue.filter((w) => w.ticket !== ticket)
      this.drain(p)
      return
    }
    this.release(ticket, 'aborted')
  }

  release(ticket: number, outcome: AttemptOutcome): void {
    const p = this.held.get(ticket)
    if (p === undefined) return
    this.held.delete(ticket)
    p.inFlight--
    if (outcome.startsWith('retry:')) {
      const reason = outcome.slice('retry:'.length)
      p.retried[reason] = (p.retried[reason] ?? 0) + 1
    } else if (outcome === 'gave-up') p.gaveUp++
    else if (outcome === 'failed') p.failed++
    this.drain(p)
  }

  summary(): PoolSummary[] {
    return [...this.pools.values()].map(({ pool, cap, peak, calls, attempts, waited, retried, gaveUp, failed }) => ({
      pool,
      cap,
      peak,
      calls,
      attempts,
      waited,
      retried: { ...retried },
      gaveUp,
      failed,
    }))
  }

  /** Forgets the counts (a new launch in watch mode); slots held now stay held. */
  resetCounts(): void {
    for (const [key, p] of this.pools) {
      if (p.inFlight === 0 && p.queue.length === 0) this.pools.delete(key)
      else Object.assign(p, { peak: p.inFlight, calls: 0, attempts: 0, waited: 0, retried: {}, gaveUp: 0, failed: 0 })
    }
  }

  private pool(name: string): Pool {
    let p = this.pools.get(name)
    if (p === undefined) {
      p = { pool: name, cap: Number.POSITIVE_INFINITY, peak: 0, calls: 0, attempts: 0, waited: 0, retried: {}, gaveUp: 0, failed: 0, inFlight: 0, queue: [] }
      this.pools.set(name, p)
    }
    return p
  }

  private hold(p: Pool, ticket: number): void {
    p.inFlight++
    p.peak = Math.max(p.peak, p.inFlight)
    this.held.set(ticket, p)
  }

  /** Grants waiters in arrival order; one whose own cap is full lets a later one with a larger cap pass. */
  private drain(p: Pool): void {
    for (const w of [...p.queue]) {
      if (p.inFlight >= w.cap) continue
      p.queue = p.queue.filter((q) => q !== w)
      this.waiting.delete(w.ticket)
      this.hold(p, w.ticket)
      w.grant()
    }
  }
}

/** One line per pool, as the launch summary and the docs show it. */
export function describePool(s: PoolSummary): string {
  const retried = Object.entries(s.retried)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([reason, n]) => `${reason} ×${n}`)
  const retries = s.attempts - s.calls
  return (
    `${s.pool}: ${s.calls} call${s.calls === 1 ? '' : 's'}, ${s.attempts} attempt${s.attempts === 1 ? '' : 's'}` +
    ` (${retries} retr${retries === 1 ? 'y' : 'ies'}${retried.length > 0 ? `: ${retried.join(', ')}` : ''})` +
    `, ${s.gaveUp} gave up after the retry ceiling, ${s.failed} failed without retry` +
    `; at most ${s.peak} in flight (cap ${s.cap}), ${s.waited} attempt${s.waited === 1 ? '' : 's'} waited for a slot`
  )
}
