// A ticket's score for each queue: a blend of its similarity to the queue's centroid (what the queue
// is about on average) and to the queue's two closest training tickets (what it is like at its
// nearest). The centroid alone is blind to queues with many kinds of ticket, such as security.
import type { CentroidClassifier, QueueSimilarity } from './centroid-classifier.js'
import type { LabelledTicket } from './dataset.js'
import type { NearestNeighbours } from './nearest-neighbours.js'
import type { SparseVector } from './sparse-vector.js'

const CLOSEST = 2

export function queueScores(vector: SparseVector, classifier: CentroidClassifier, index: NearestNeighbours<LabelledTicket>, neighbourWeight: number): QueueSimilarity[] {
  return classifier.similarities(vector).map(({ queue, similarity }) => {
    const closest = index.nearest(vector, CLOSEST, queue)
    const closeness = closest.reduce((sum, n) => sum + n.similarity, 0) / CLOSEST
    return { queue, similarity: (1 - neighbourWeight) * similarity + neighbourWeight * closeness }
  })
}
