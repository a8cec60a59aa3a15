// The system under test: a support-ticket triage "model" that routes a ticket to a queue and a
// priority. Queue: TF-IDF similarity (centroid + nearest tickets), decoded at a temperature with a
// PRNG seeded by the caller, so samples can disagree as an LLM's do at temperature > 0. Priority:
// nearest training tickets in the chosen queue, moved by urgency cues.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { CentroidClassifier } from './centroid-classifier.js'
import { loadTickets, type LabelledTicket } from './dataset.js'
import { NearestNeighbours } from './nearest-neighbours.js'
import { estimatePriority } from './priority-estimate.js'
import { seededRandom } from './prng.js'
import { queueScores } from './queue-scores.js'
import { PRIORITIES, type Priority, type Queue } from './queues.js'
import { sampleWithTemperature } from './temperature-sampling.js'
import { TfidfVectorizer } from './tfidf.js'
import { tokenize } from './tokenize.js'
import { urgencyCues } from './urgency-cues.js'

export const MODEL_NAME = 'tfidf-centroid-v1'

/** The declared settings; an eval records them as its target config. */
export interface TriageSettings {
  model: typeof MODEL_NAME
  /** 0 = greedy decoding. */
  temperature: number
  /** Similarity units per logit at temperature 1. */
  similarity_scale: number
  /** Share of a queue's score from its closest training tickets rather than its centroid (0..1). */
  neighbour_weight: number
  /** Training tickets consulted for the priority. */
  priority_neighbours: number
}

export const DEFAULT_SETTINGS: TriageSettings = {
  model: MODEL_NAME,
  temperature: 0.3,
  similarity_scale: 0.07,
  neighbour_weight: 0.5,
  priority_neighbours: 5,
}

export interface TriageDecision {
  queue: Queue
  priority: Priority
  /** The probability the decoder gave the queue it chose. */
  confidence: number
  /** Why, in a line: the words that pulled towards the queue and the closest training ticket. */
  reason: string
}

export interface TriageModel {
  /** The observed identity: the model name and a digest of the training data it was fitted on. */
  readonly id: string
  readonly trainingSize: number
  readonly vocabularySize: number
  /** The same (text, seed) always gives the same decision. */
  triage(text: string, seed: string): TriageDecision
}

export function createTriageModel(trainingFile: string, settings: TriageSettings = DEFAULT_SETTINGS): TriageModel {
  const bytes = readFileSync(trainingFile)
  const digest = createHash('sha256').update(bytes).digest('hex').slice(0, 8)
  const tickets = loadTickets(trainingFile)
  const tokenized = tickets.map((t) => tokenize(t.text))
  const vectorizer = new TfidfVectorizer(tokenized)
  const examples = tickets.map((item, i) => ({ item, queue: item.queue, vector: vectorizer.vectorize(tokenized[i]!) }))
  const classifier = new CentroidClassifier(examples)
  const index = new NearestNeighbours<LabelledTicket>(examples)
  const usualPriority = new Map<Queue, Priority>()
  for (const { queue } of tickets) {
    if (usualPriority.has(queue)) continue
    const counts = PRIORITIES.map((p) => tickets.filter((t) => t.queue === queue && t.priority === p).length)
    usualPriority.set(queue, PRIORITIES[counts.indexOf(Math.max(...counts))]!)
  }

  return {
    id: `${MODEL_NAME}-${digest}`,
    trainingSize: tickets.length,
    vocabularySize: vectorizer.vocabularySize,
    triage(text, seed) {
      const tokens = tokenize(text)
      const vector = vectorizer.vectorize(tokens)
      const scores = queueScores(vector, classifier, index, settings.neighbour_weight)
      const draw = sampleWithTemperature(
        scores.map((s) => s.similarity),
        settings.temperature,
        settings.similarity_scale,
        seededRandom(seed),
      )
      const queue = scores[draw.index]!.queue
      const nearest = index.nearest(vector, settings.priority_neighbours, queue)
      const estimate = estimatePriority(nearest, urgencyCues(text), usualPriority.get(queue)!)
      const surface = new Map(tokens.map((t) => [t.term, t.surface]))
      const words = classifier.strongestTerms(vector, queue, 3).map((term) => surface.get(term) ?? term)
      const closest = nearest[0]
      const reason =
        words.length === 0
          ? `no word of the ticket pulls towards ${queue}; the decoder picked it anyway`
          : `words like ${words.map((w) => `"${w}"`).join(', ')}` + (closest ? `; closest training ticket ${closest.item.id} (${closest.similarity.toFixed(2)})` : '')
      return {
        queue,
        priority: estimate.priority,
        confidence: Math.round(draw.probabilities[draw.index]! * 100) / 100,
        reason,
      }
    },
  }
}
