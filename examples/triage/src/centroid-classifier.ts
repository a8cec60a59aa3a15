// One centroid per queue (the mean of its training tickets' TF-IDF vectors); a ticket's similarity
// to a queue is its cosine with that centroid. It knows words, not meaning: a ticket about an
// invoice bug looks like billing, and "locked out" looks like account whoever locked it.
import { QUEUES, type Queue } from './queues.js'
import { dot, mean, normalize, type SparseVector } from './sparse-vector.js'

export interface QueueSimilarity {
  queue: Queue
  similarity: number
}

export class CentroidClassifier {
  private readonly centroids: ReadonlyMap<Queue, SparseVector>

  constructor(examples: readonly { queue: Queue; vector: SparseVector }[]) {
    const centroids = new Map<Queue, SparseVector>()
    for (const queue of QUEUES) {
      const members = examples.filter((e) => e.queue === queue).map((e) => e.vector)
      if (members.length === 0) throw new Error(`no training tickets for queue ${queue}`)
      centroids.set(queue, normalize(mean(members)))
    }
    this.centroids = centroids
  }

  /** Similarity to every queue, in QUEUES order. */
  similarities(vector: SparseVector): QueueSimilarity[] {
    return QUEUES.map((queue) => ({ queue, similarity: dot(vector, this.centroids.get(queue)!) }))
  }

  /** The terms of the vector that pull it hardest towards the queue, strongest first. */
  strongestTerms(vector: SparseVector, queue: Queue, count: number): string[] {
    const centroid = this.centroids.get(queue)!
    return [...vector]
      .map(([term, weight]) => ({ term, pull: weight * (centroid.get(term) ?? 0) }))
      .filter((t) => t.pull > 0)
      .sort((a, b) => b.pull - a.pull || (a.term < b.term ? -1 : 1))
      .slice(0, count)
      .map((t) => t.term)
  }
}
