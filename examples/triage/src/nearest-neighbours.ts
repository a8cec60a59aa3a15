// The k training tickets most similar to a ticket, optionally within one queue.
import type { Queue } from './queues.js'
import { dot, type SparseVector } from './sparse-vector.js'

export interface Neighbour<T> {
  item: T
  similarity: number
}

export class NearestNeighbours<T extends { queue: Queue }> {
  constructor(private readonly items: readonly { item: T; vector: SparseVector }[]) {}

  nearest(vector: SparseVector, k: number, queue?: Queue): Neighbour<T>[] {
    return this.items
      .filter((e) => queue === undefined || e.item.queue === queue)
      .map((e) => ({ item: e.item, similarity: dot(vector, e.vector) }))
      .filter((n) => n.similarity > 0)
      .sort((a, b) => b.similarity - a.similarity)
      .slice(0, k)
  }
}
