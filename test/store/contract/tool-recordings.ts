// Tool replay's recordings (SPEC §16): tool-call outcomes by key, per tenant, suite and case, never
// part of a run, and removed with the run that recorded them. Backend-neutral: it speaks only
// through the Store contract.
import { describe, expect, it } from 'vitest'
import { PathRefusedError } from '../../../src/suite/errors.js'
import { toolArgumentsDigest, toolRecordingKey, toolVersionDigest, type ToolOutcome, type ToolRecording } from '../../../src/suite/tool-replay.js'
import { keyOf, makeRun } from '../../helpers/make-run.js'
import { HOSTILE_NAMES, refusedWithoutChange, type ContractSubject } from './harness.js'

const RUN = '20261201T090000000001Z-0123456789ab'
const T1 = '2026-12-01T09:00:00.000001Z'
const T2 = '2026-12-01T09:00:01.000001Z'
const DECLARED = { name: 'lookup', parameters: { type: 'object' } }

function recording(caseId: string, args: unknown, outcome: ToolOutcome, at = T1, run = RUN, occurrence = 0, tool = 'lookup'): ToolRecording {
  const parts = { tool, version: toolVersionDigest(DECLARED), arguments: toolArgumentsDigest(args), occurrence }
  return { key: toolRecordingKey(caseId, parts), case_id: caseId, parts, run, outcome, recorded_at: at }
}

export function toolRecordingsPart(current: () => ContractSubject): void {
  describe('tool recordings', () => {
    it('gives back a recording exactly as it was filed, under its tenant, suite, case and key only', async () => {
      const { store } = current()
      const lima = recording('lima', { city: 'Lima' }, { result: { station: 'SPJC', list: [1, null, 'x'], nested: { deep: true } } })
      expect(await store.toolRecording('acme', 'weather', 'lima', lima.key)).toBeUndefined()
      await store.recordToolCall('acme', 'weather', lima)
      expect(await store.toolRecording('acme', 'weather', 'lima', lima.key)).toEqual(lima)
      expect(await store.toolRecording('acme', 'rivers', 'lima', lima.key)).toBeUndefined()
      expect(await store.toolRecording('globex', 'weather', 'lima', lima.key)).toBeUndefined()
      expect(await store.toolRecording('acme', 'weather', 'oslo', lima.key)).toBeUndefined()
      const failed = recording('lima', { city: 'Atlantis' }, { error: 'no city Atlantis' })
      await store.recordToolCall('acme', 'weather', failed)
      expect(await store.toolRecording('acme', 'weather', 'lima', failed.key)).toEqual(failed)
      const nothing = recording('lima', { city: 'Quito' }, { result: null }, T1, RUN, 1)
      await store.recordToolCall('acme', 'weather', nothing)
      expect(await store.toolRecording('acme', 'weather', 'lima', nothing.key)).toEqual(nothing)
    })

    it("replaces a recording filed again under the same key, and lists one case's recordings newest first", async () => {
      const { store } = current()
      await store.recordToolCall('acme', 'weather', recording('lima', { city: 'Lima' }, { result: 1 }, T1))
      const again = recording('lima', { city: 'Lima' }, { result: 2 }, T2)
      const other = recording('lima', { city: 'Lima (again)' }, { result: 3 }, T1)
      await store.recordToolCall('acme', 'weather', again)
      await store.recordToolCall('acme', 'weather', other)
      await store.recordToolCall('acme', 'weather', recording('oslo', { city: 'Oslo' }, { result: 4 }, T2))
      expect(await store.toolRecording('acme', 'weather', 'lima', again.key)).toEqual(again)
      expect(await store.toolRecordingsOf('acme', 'weather', 'lima')).toEqual([again, other])
      expect(await store.toolRecordingsOf('acme', 'weather', 'quito')).toEqual([])
      expect(await store.toolRecordingsOf('acme', 'rivers', 'lima')).toEqual([])
    })

    it('loses the recordings of a run when the run is deleted, keeps every other run’s, and adds no run or journal', async () => {
      const { store } = current()
      const run = makeRun()
      await store.writeRun(run)
      const mine = [recording('lima', { city: 'Lima' }, { result: 1 }, T1, keyOf(run)), recording('oslo', { city: 'Oslo' }, { error: 'down' }, T1, keyOf(run))]
      const other = recording('quito', { city: 'Quito' }, { result: 2 }, T1, RUN)
      for (const r of [...mine, other]) await store.recordToolCall(run.tenant, run.suite, r)
      expect((await store.listRuns(run.tenant, run.suite)).runs.map((r) => r.key)).toEqual([keyOf(run)])
      expect(await store.pending(run.tenant, run.suite)).toEqual([])
      expect(await store.readRun(run.tenant, run.suite, keyOf(run))).toEqual(run)
      await store.deleteRun(run.tenant, run.suite, keyOf(run))
      for (const r of mine) expect(await store.toolRecording(run.tenant, run.suite, r.case_id, r.key)).toBeUndefined()
      expect(await store.toolRecording(run.tenant, run.suite, 'quito', other.key)).toEqual(other)
      // A delete repeated after the run is gone still forgets what the run recorded.
      const late = recording('lima', { city: 'Lima' }, { result: 5 }, T2, keyOf(run), 1)
      await store.recordToolCall(run.tenant, run.suite, late)
      expect((await store.deleteRun(run.tenant, run.suite, keyOf(run))).nothing).toBe(true)
      expect(await store.toolRecording(run.tenant, run.suite, 'lima', late.key)).toBeUndefined()
      expect(await store.forgetRunRecordings(run.tenant, run.suite, RUN)).toBe(1)
      expect(await store.toolRecordingsOf(run.tenant, run.suite, 'quito')).toEqual([])
    })

    it('refuses a recording filed under a key that is not the key of its own parts, or of a tool name that is not one, and changes nothing', async () => {
      const subject = current()
      const lima = recording('lima', { city: 'Lima' }, { result: 1 })
      await refusedWithoutChange(
        subject,
        () => subject.store.recordToolCall('acme', 'weather', { ...lima, key: recording('lima', { city: 'Oslo' }, { result: 1 }).key }),
        PathRefusedError,
      )
      const badTool = recording('lima', { city: 'Lima' }, { result: 1 }, T1, RUN, 0, '../lookup')
      await refusedWithoutChange(subject, () => subject.store.recordToolCall('acme', 'weather', badTool), PathRefusedError)
    })

    it('refuses hostile names and malformed keys before any I/O', async () => {
      const subject = current()
      const { store } = subject
      const lima = recording('lima', { city: 'Lima' }, { result: 1 })
      for (const name of HOSTILE_NAMES) {
        await refusedWithoutChange(subject, () => store.recordToolCall(name, 'weather', lima), PathRefusedError)
        await refusedWithoutChange(subject, () => store.recordToolCall('acme', name, lima), PathRefusedError)
        await refusedWithoutChange(subject, () => store.recordToolCall('acme', 'weather', { ...lima, run: name }), PathRefusedError)
        await refusedWithoutChange(subject, () => store.toolRecording('acme', 'weather', name, lima.key), PathRefusedError)
        await refusedWithoutChange(subject, () => store.toolRecordingsOf('acme', name, 'lima'), PathRefusedError)
        await refusedWithoutChange(subject, () => store.forgetRunRecordings('acme', 'weather', name), PathRefusedError)
      }
      for (const key of ['', '..', 'ABC', lima.key.toUpperCase(), `${lima.key}0`, '../x'])
        await refusedWithoutChange(subject, () => store.toolRecording('acme', 'weather', 'lima', key), PathRefusedError)
    })
  })
}
