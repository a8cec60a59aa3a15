// Twelve support tickets with the queue a human triager chose; two per queue, some of them close calls.
import type { QUEUES } from './routing-prompt.js'

export interface TicketCase {
  id: string
  input: string
  expected: (typeof QUEUES)[number]
}

export const CASES: readonly TicketCase[] = [
  { id: 'refund-double-charge', expected: 'billing', input: 'We were charged twice for the May renewal. Please refund one of the payments.' },
  { id: 'seats-after-removal', expected: 'billing', input: 'We removed eight people from the team last month but the invoice still charges us for them.' },
  { id: 'all-users-502', expected: 'outage', input: 'Every page returns 502 for everyone in our company since 08:15.' },
  { id: 'webhooks-silent', expected: 'outage', input: 'Our endpoint has received no webhook events at all for the last two hours, for any workspace.' },
  { id: 'reset-email-missing', expected: 'account', input: 'The password reset email never arrives, I checked spam too.' },
  { id: 'transfer-ownership', expected: 'account', input: "I'm leaving the company; how do I make my manager the owner of our workspace?" },
  { id: 'csv-dates-shifted', expected: 'bug', input: 'Exported CSV files show every due date one day earlier than the app does.' },
  { id: 'invoice-tax-rounding', expected: 'bug', input: 'Invoices I create for my clients in your invoicing module round the tax wrong: 19% of 100.05 shows as 19.00.' },
  { id: 'excel-export', expected: 'feature-request', input: 'Would it be possible to export boards straight to Excel?' },
  { id: 'sso-on-starter', expected: 'feature-request', input: 'Could SSO be offered on the Starter plan? We cannot justify Enterprise just for that.' },
  { id: 'unknown-admin', expected: 'security', input: "There's a new admin in our workspace that none of us added." },
  { id: 'two-factor-switched-off', expected: 'security', input: 'Two-factor authentication got turned off on my account and I never touched that setting.' },
]
