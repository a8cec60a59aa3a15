// Priority: the similarity-weighted mean priority of the ticket's nearest training tickets in its
// queue, moved half a level per urgency cue (at most one level each way), rounded to P1…P4.
import type { Neighbour } from './nearest-neighbours.js'
import { priorityAt, priorityLevel, type Priority } from './queues.js'
import type { UrgencyCues } from './urgency-cues.js'

export interface PriorityEstimate {
  priority: Priority
  /** The unrounded level (1 = P1 … 4 = P4) before and after the cues. */
  neighbourLevel: number
  level: number
}

const STEP = 0.5
const MAX_SHIFT = 1

export function estimatePriority(neighbours: readonly Neighbour<{ priority: Priority }>[], cues: UrgencyCues, fallback: Priority): PriorityEstimate {
  const weight = neighbours.reduce((sum, n) => sum + n.similarity, 0)
  const neighbourLevel = weight > 0 ? neighbours.reduce((sum, n) => sum + n.similarity * priorityLevel(n.item.priority), 0) / weight : priorityLevel(fallback)
  const shift = Math.max(-MAX_SHIFT, Math.min(MAX_SHIFT, STEP * (cues.lower.length - cues.raise.length)))
  const level = neighbourLevel + shift
  return { priority: priorityAt(level), neighbourLevel, level }
}
