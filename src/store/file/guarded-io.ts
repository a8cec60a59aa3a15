// The one translation of a raw I/O error into the store's named errors. A DiglineError raised
// inside the step (a refusal, a named failure) passes through as it is.
import { isDiglineError } from '../../errors/base.js'
import { storeWriteError } from './atomic-write.js'
import { errnoOf } from './fs-layer.js'

/** Runs a step of a write; anything unnamed it throws becomes a StoreWriteError about `path`. */
export async function guardedWrite<T>(path: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step()
  } catch (error) {
    if (isDiglineError(error)) throw error
    throw storeWriteError('writing', path, error)
  }
}

/** Runs a step of a read; anything unnamed it throws becomes the refusal `unreadable` makes for `path`. */
export async function guardedRead<T>(path: string, step: () => Promise<T>, unreadable: (file: string, why: string) => Error): Promise<T> {
  try {
    return await step()
  } catch (error) {
    if (isDiglineError(error)) throw error
    throw unreadable(path, `it cannot be read (${errnoOf(error) ?? String(error)})`)
  }
}
