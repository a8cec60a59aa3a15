// A case's own abort signal, made when something first reads it. A target or scorer that never
// reads ctx.signal (an instant one, a cached answer) costs no AbortController, which is a few µs
// of CPU and an EventTarget for the collector per case (docs/adr/0564). Stopped before it is read,
// the signal it then makes is already aborted with the stop's reason.
export class CaseSignal {
  private controller: AbortController | undefined
  private stopped: { reason: unknown } | undefined

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController()
      if (this.stopped !== undefined) this.controller.abort(this.stopped.reason)
    }
    return this.controller.signal
  }

  get aborted(): boolean {
    return this.stopped !== undefined
  }

  abort(reason: unknown): void {
    if (this.stopped !== undefined) return
    this.stopped = { reason }
    this.controller?.abort(reason)
  }
}
