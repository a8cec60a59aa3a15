// The prompt that asks a chat model to route a support ticket: the whole "program" of this example.

export const QUEUES = ['billing', 'outage', 'account', 'bug', 'feature-request', 'security'] as const

export const PROMPT_VERSION = 'route-v1'

export const SYSTEM_PROMPT = [
  'You route customer support tickets for a project-management SaaS to one queue.',
  'Queues:',
  '- billing: charges, invoices, refunds, plans and prices',
  '- outage: the service is down or degraded for many users at once',
  '- account: logins, passwords, invitations, members, roles, workspace ownership',
  '- bug: something behaves wrongly for a user, while the service is up',
  '- feature-request: something the product does not do yet',
  '- security: compromised accounts, vulnerabilities, leaked credentials, compliance documents',
  `Answer with exactly one of: ${QUEUES.join(', ')}. No other words.`,
].join('\n')

/** What the LLM judge grades against; part of the judge config, so of config_hash. */
export const JUDGE_RUBRIC = [
  'The response must be exactly one queue name for the support ticket in the input.',
  'The reference answer is the queue a human triager chose.',
  '5: the response is the reference queue.',
  '3: the response is a different queue that a careful triager could defend for this ticket.',
  '1: the response is a wrong queue, several queues, or not a queue name at all.',
].join('\n')
