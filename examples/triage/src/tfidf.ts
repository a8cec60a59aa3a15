// TF-IDF weighting fitted on the training tickets: sublinear term frequency, smoothed inverse
// document frequency, unit length. Terms never seen in training carry no weight.
import { normalize, type SparseVector } from './sparse-vector.js'
import type { Token } from './tokenize.js'

export class TfidfVectorizer {
  private readonly idf = new Map<string, number>()

  constructor(documents: readonly (readonly Token[])[]) {
    const df = new Map<string, number>()
    for (const doc of documents) for (const term of new Set(doc.map((t) => t.term))) df.set(term, (df.get(term) ?? 0) + 1)
    const n = documents.length
    for (const [term, count] of df) this.idf.set(term, Math.log((n + 1) / (count + 1)) + 1)
  }

  get vocabularySize(): number {
    return this.idf.size
  }

  vectorize(tokens: readonly Token[]): SparseVector {
    const tf = new Map<string, number>()
    for (const { term } of tokens) if (this.idf.has(term)) tf.set(term, (tf.get(term) ?? 0) + 1)
    const v: SparseVector = new Map()
    for (const [term, count] of tf) v.set(term, (1 + Math.log(count)) * this.idf.get(term)!)
    return normalize(v)
  }
}
