// How the host's door exports a use case without loading it: the wrapper has the use case's own
// signature, and its module (with the store, the driver, zod…) is imported at the first call (ADR 0420).
export function loadOnCall<F extends (...args: never[]) => Promise<unknown>>(load: () => Promise<F>): F {
  return ((...args: Parameters<F>) => load().then((use) => use(...args))) as F
}
