// A store whose backend module is imported by its first operation: opening stays synchronous, and a
// launch on the file store loads none of the team store's code (docs/adr/0280).
import type { Store } from './contract.js'
import type { PendingFollower } from './pending-follower.js'

export class DeferredStore implements Store {
  private loaded: Promise<Store> | undefined

  constructor(private readonly load: () => Promise<Store>) {}

  private store(): Promise<Store> {
    return (this.loaded ??= this.load())
  }

  writeRun: Store['writeRun'] = async (...a) => (await this.store()).writeRun(...a)
  readRun: Store['readRun'] = async (...a) => (await this.store()).readRun(...a)
  listRuns: Store['listRuns'] = async (...a) => (await this.store()).listRuns(...a)
  scanRuns: Store['scanRuns'] = async (...a) => (await this.store()).scanRuns(...a)
  latestKey: Store['latestKey'] = async (...a) => (await this.store()).latestKey(...a)
  deleteRun: Store['deleteRun'] = async (...a) => (await this.store()).deleteRun(...a)
  openJournal: Store['openJournal'] = async (...a) => (await this.store()).openJournal(...a)
  pending: Store['pending'] = async (...a) => (await this.store()).pending(...a)
  pendingCases: Store['pendingCases'] = async (...a) => (await this.store()).pendingCases(...a)
  followPending = (tenant: string, suite: string): PendingFollower => {
    let follower: Promise<PendingFollower | undefined> | undefined
    const following = () => (follower ??= this.store().then((s) => s.followPending?.(tenant, suite)))
    const deferred = {
      lastRead: { bytes: 0, rows: 0 },
      poll: async () => {
        const f = await following()
        if (f === undefined) return (await this.store()).pending(tenant, suite)
        const out = await f.poll()
        deferred.lastRead = f.lastRead
        return out
      },
    }
    return deferred
  }
  dropPending: Store['dropPending'] = async (...a) => (await this.store()).dropPending(...a)
  listSuites: Store['listSuites'] = async (...a) => (await this.store()).listSuites(...a)
  readBaseline: Store['readBaseline'] = async (...a) => (await this.store()).readBaseline(...a)
  promote: Store['promote'] = async (...a) => (await this.store()).promote(...a)
  readRegister: Store['readRegister'] = async (...a) => (await this.store()).readRegister(...a)
  retireSuite: Store['retireSuite'] = async (...a) => (await this.store()).retireSuite(...a)
  retirementOf: Store['retirementOf'] = async (...a) => (await this.store()).retirementOf(...a)
  retiredSuites: Store['retiredSuites'] = async (...a) => (await this.store()).retiredSuites(...a)
  removalOf: Store['removalOf'] = async (...a) => (await this.store()).removalOf(...a)
  cachedAnswer: Store['cachedAnswer'] = async (...a) => (await this.store()).cachedAnswer(...a)
  cacheAnswer: Store['cacheAnswer'] = async (...a) => (await this.store()).cacheAnswer(...a)
  cachedAnswersOf: Store['cachedAnswersOf'] = async (...a) => (await this.store()).cachedAnswersOf(...a)
  clearCache: Store['clearCache'] = async (...a) => (await this.store()).clearCache(...a)
  forgetRunAnswers: Store['forgetRunAnswers'] = async (...a) => (await this.store()).forgetRunAnswers(...a)
  appendReview: Store['appendReview'] = async (...a) => (await this.store()).appendReview(...a)
  listReviews: Store['listReviews'] = async (...a) => (await this.store()).listReviews(...a)
  toolRecording: Store['toolRecording'] = async (...a) => (await this.store()).toolRecording(...a)
  recordToolCall: Store['recordToolCall'] = async (...a) => (await this.store()).recordToolCall(...a)
  toolRecordingsOf: Store['toolRecordingsOf'] = async (...a) => (await this.store()).toolRecordingsOf(...a)
  forgetRunRecordings: Store['forgetRunRecordings'] = async (...a) => (await this.store()).forgetRunRecordings(...a)
  close: Store['close'] = async () => (await this.store()).close()
}
