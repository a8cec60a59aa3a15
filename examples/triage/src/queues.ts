// The labels the triage system chooses between: where a ticket goes, and how fast someone must look at it.

export const QUEUES = ['billing', 'outage', 'account', 'bug', 'feature-request', 'security'] as const
export type Queue = (typeof QUEUES)[number]

/** P1 = drop everything, P2 = today, P3 = this week, P4 = when there is time. */
export const PRIORITIES = ['P1', 'P2', 'P3', 'P4'] as const
export type Priority = (typeof PRIORITIES)[number]

export function isQueue(value: unknown): value is Queue {
  return typeof value === 'string' && (QUEUES as readonly string[]).includes(value)
}

export function isPriority(value: unknown): value is Priority {
  return typeof value === 'string' && (PRIORITIES as readonly string[]).includes(value)
}

/** 1 for P1 … 4 for P4. */
export function priorityLevel(priority: Priority): number {
  return PRIORITIES.indexOf(priority) + 1
}

/** The priority for a level, rounded and clamped to P1…P4. */
export function priorityAt(level: number): Priority {
  const index = Math.min(PRIORITIES.length, Math.max(1, Math.round(level))) - 1
  return PRIORITIES[index]!
}
