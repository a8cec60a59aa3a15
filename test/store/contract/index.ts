// The Store contract suite (SPEC §10): one function, run whole against every backend. A backend
// passes a factory of fresh, empty stores; nothing here knows how a backend keeps its data.
import { afterEach, beforeEach, describe } from 'vitest'
import { adaptiveJournalPart } from './adaptive-journal.js'
import { baselinesPart } from './baselines.js'
import { cachePart } from './cache.js'
import type { ContractFactory, ContractSubject } from './harness.js'
import { leasesPart } from './leases.js'
import { lifecyclePart } from './lifecycle.js'
import { pendingCasesPart } from './pending-cases.js'
import { removalsPart } from './removals.js'
import { reviewsPart } from './reviews.js'
import { runsPart } from './runs.js'
import { suitesPart } from './suites.js'
import { toolRecordingsPart } from './tool-recordings.js'

export type { ContractFactory, ContractSubject } from './harness.js'

export function runStoreContract(label: string, makeSubject: ContractFactory): void {
  describe(`${label} — the Store contract`, () => {
    let subject: ContractSubject | undefined
    beforeEach(async () => {
      subject = await makeSubject()
    })
    afterEach(async () => {
      await subject?.cleanup()
      subject = undefined
    })
    const current = (): ContractSubject => {
      if (subject === undefined) throw new Error('no store subject: the contract suite makes one before each test')
      return subject
    }
    runsPart(current)
    baselinesPart(current)
    removalsPart(current)
    leasesPart(current)
    suitesPart(current)
    cachePart(current)
    reviewsPart(current)
    toolRecordingsPart(current)
    lifecyclePart(current)
    adaptiveJournalPart(current)
    pendingCasesPart(current)
  })
}
