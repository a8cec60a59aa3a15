// Folding a run's journal records into what a resume needs, whatever keeps the bytes: every leg in
// order, each line verified against its run. Both backends hand their legs here as the bytes of
// their lines, so the journal's schema and its checks are one definition.
import { dirname, join } from 'node:path'
import type { CaseResult, ErrorCause, Observed } from '../document/schema.js'
import { CorruptJournalError, UnknownJournalVersionError } from './errors.js'
import { canonicalJson } from '../suite/hashing.js'
import { keyFor } from '../suite/keys.js'
import { BODY_START, decodeLine, decodeLineIn, sniffUnknownVersion, verifiedCaseId, type DecodedLine } from './journal-format.js'
import type { DiglineErrorData } from '../errors/base.js'
import { JOURNAL_VERSION, RESUME_CHECKED_FIELDS, type DeclaredCases, type JournalHeader, type LegLease, type Pending, type PendingCases } from './journal.js'
import { leaseHolds } from './live-writer.js'

export interface JournalPlace {
  tenant: string
  suite: string
  key: string
}

export interface LegBytes {
  leg: number
  /** Where the leg is, for messages: a file for the file store, a sentence-fragment for the team store. */
  file: string
  bytes: Buffer
}

/**
 * A leg with no whole line: empty, or only the unterminated fragment of a header its process was
 * killed writing. It holds nothing, and no writer leaves one behind on purpose (a writer whose leg
 * is removed under it notices and stops), so the next command that touches the journal removes it.
 */
export function isProvablyEmpty(bytes: Buffer): boolean {
  return bytes.indexOf(NEWLINE) < 0
}

/** The header fields that make two legs one run; started_at and the lease are the leg's own. */
const RUN_DEFINING_FIELDS = ['created_at', ...RESUME_CHECKED_FIELDS] as const satisfies readonly (keyof JournalHeader)[]

const NEWLINE = 0x0a

export function emptyObserved(): Observed {
  return { target_model: null, judge_models: {} }
}

// A declaration holds a digest per case, so reading and checking it is a cost per case. The legs of
// one run (and the shards of a merge) carry the same line 2, byte for byte: the last one read is
// kept, as long as something still holds its value, and a line equal to it under the same run is
// that value (verifying the same bytes against the same binding gives the same answer).
const declaredLines = new WeakMap<DeclaredCases, { run: string; line: Buffer }>()
let lastDeclared: WeakRef<DeclaredCases> | undefined

const runOf = (place: JournalPlace): string => `${place.tenant}/${place.suite}/${place.key}`

function knownDeclared(place: JournalPlace, line: Buffer): DeclaredCases | undefined {
  const declared = lastDeclared?.deref()
  const known = declared === undefined ? undefined : declaredLines.get(declared)
  return known !== undefined && known.run === runOf(place) && known.line.equals(line) ? declared : undefined
}

function rememberDeclared(place: JournalPlace, declared: DeclaredCases, line: Buffer): void {
  declaredLines.set(declared, { run: runOf(place), line: Buffer.from(line) })
  lastDeclared = new WeakRef(declared)
}

/** What a backend says of a journal beside what its legs fold into. */
type JournalBase = Pick<Pending, 'tenant' | 'suite' | 'key' | 'header' | 'legs' | 'leases' | 'finished'>

/**
 * Folds legs into what a resume needs, in leg order; throws the refusal on the first bad line.
 * `casesOnly` folds them for a survey of which cases are journaled (a merge's checks): each verified
 * case record gives its id alone, and `done`, `causes` and `observed` stay empty (ADR 0562).
 */
export class JournalPlanner {
  header: JournalHeader | undefined
  private headerLeg = 0
  readonly done = new Map<string, CaseResult>()
  readonly causes = new Map<string, ErrorCause>()
  /** The ids of the journaled cases, when folding `casesOnly`. */
  readonly caseIds = new Set<string>()
  readonly leases: LegLease[] = []
  declared: DeclaredCases | undefined
  private declaredLeg = 0
  observed: Observed = emptyObserved()

  constructor(
    readonly place: JournalPlace,
    private readonly giveUp: (file: string, key: string) => string = defaultGiveUp,
    private readonly casesOnly = false,
  ) {}

  /**
   * Folds the whole lines of a leg's bytes; `firstLine` > 1 continues a leg from where an earlier
   * call stopped (a follower reading only what was appended). Returns the bytes of whole lines folded.
   */
  addLeg({ leg, file, bytes }: LegBytes, firstLine = 1): number {
    if (this.casesOnly) return this.addLegCases(leg, file, bytes, firstLine)
    // The whole lines decoded as UTF-8 at once: a newline byte is a newline character whatever
    // surrounds it, so line N of the text is line N of the bytes, and each line's JSON is a slice of
    // the text. When every byte is ASCII (as digline writes all but non-ASCII strings) the text's
    // offsets are the bytes' offsets, and the bytes are not searched again.
    const whole = bytes.lastIndexOf(NEWLINE) + 1
    const text = bytes.toString('utf8', 0, whole)
    const ascii = text.length === whole
    let start = 0
    let textStart = 0
    let lineNumber = firstLine - 1
    for (;;) {
      const textEnd = text.indexOf('\n', textStart)
      if (textEnd < 0) return whole
      const end = ascii ? textEnd : bytes.indexOf(NEWLINE, start)
      lineNumber += 1
      if (lineNumber === 1) {
        this.addHeader(leg, file, bytes.subarray(start, end))
      } else if (lineNumber === 2 && this.addKnownDeclared(leg, file, bytes.subarray(start, end))) {
        // The same line 2 as a leg read before: the same declaration, verified then.
      } else {
        this.addRecord(leg, file, lineNumber, decodeLineIn(bytes, start, end, this.place, text.slice(textStart + BODY_START, textEnd)), bytes, start, end)
      }
      start = end + 1
      textStart = textEnd + 1
    }
  }

  /** addLeg for a survey: a case record that verifies gives its id without its JSON being parsed; any other line is read whole. */
  private addLegCases(leg: number, file: string, bytes: Buffer, firstLine: number): number {
    let start = 0
    let lineNumber = firstLine - 1
    for (;;) {
      const end = bytes.indexOf(NEWLINE, start)
      if (end < 0) return start
      lineNumber += 1
      if (lineNumber === 1) {
        this.addHeader(leg, file, bytes.subarray(start, end))
      } else if (lineNumber === 2 && this.addKnownDeclared(leg, file, bytes.subarray(start, end))) {
        // The same line 2 as a leg read before.
      } else {
        const id = lineNumber === 2 ? undefined : verifiedCaseId(bytes, start, end, this.place)
        if (id === undefined) this.addRecord(leg, file, lineNumber, decodeLineIn(bytes, start, end, this.place), bytes, start, end)
        else this.addCaseId(file, lineNumber, id)
      }
      start = end + 1
    }
  }

  /** Line 2 byte for byte as the last declaration read (another leg or shard of the run): its value, without reading it again. */
  private addKnownDeclared(leg: number, file: string, line: Buffer): boolean {
    const declared = knownDeclared(this.place, line)
    if (declared !== undefined) this.addDeclared(leg, file, declared)
    return declared !== undefined
  }

  /** The record decoded from bytes[start, end); only line 2's bytes are kept (as the declaration's). */
  private addRecord(leg: number, file: string, lineNumber: number, decoded: DecodedLine, bytes: Buffer, start: number, end: number): void {
    if (!decoded.ok) throw this.corrupt(file, lineNumber, decoded.why)
    const record = decoded.record
    if (lineNumber === 2) {
      if (record.kind !== 'cases') throw this.corrupt(file, 2, `is a ${record.kind} record where the leg's declared cases belong`)
      this.addDeclared(leg, file, record.declared)
      rememberDeclared(this.place, record.declared, bytes.subarray(start, end))
      return
    }
    if (record.kind === 'case') {
      this.assertShape(file, lineNumber, record.result)
      const id = record.result.case_id
      if (this.casesOnly) {
        this.caseIds.add(id)
        return
      }
      this.done.set(id, record.result)
      const cause = record.result.verdict === 'error' ? (record.cause ?? record.result.error?.cause) : undefined
      if (cause === undefined) this.causes.delete(id)
      else this.causes.set(id, cause)
    } else if (record.kind === 'observed') {
      this.observed = record.observed
    } else {
      throw this.corrupt(
        file,
        lineNumber,
        record.kind === 'header' ? 'is a header, and a header belongs only on line 1 of a leg' : 'is a declared-cases record, which belongs only on line 2 of a leg',
      )
    }
  }

  private addDeclared(leg: number, file: string, declared: DeclaredCases): void {
    if (this.declared === undefined) {
      this.declared = declared
      this.declaredLeg = leg
    } else if (declared !== this.declared && canonicalJson(declared) !== canonicalJson(this.declared)) {
      throw this.corrupt(file, 2, `declares other cases than leg ${this.declaredLeg}: the legs are not one run`)
    }
  }

  /** A case record read for its id alone: a case the run declares. */
  private addCaseId(file: string, lineNumber: number, id: string): void {
    this.declaredOf(file, lineNumber, id)
    this.caseIds.add(id)
  }

  /** The run's declaration, which must declare case `id`. */
  private declaredOf(file: string, lineNumber: number, id: string): DeclaredCases {
    const declared = this.declared
    if (declared === undefined) throw this.corrupt(file, lineNumber, 'is a case record in a leg whose declared cases (line 2) are missing')
    if (!Object.hasOwn(declared.digests, id)) {
      throw this.corrupt(file, lineNumber, `is a record of case ${JSON.stringify(id)}, which run ${this.place.key} does not declare; it is never merged`)
    }
    return declared
  }

  /** A case record must fit its run: a case the run declares, with the run's samples per case. */
  private assertShape(file: string, lineNumber: number, result: CaseResult): void {
    const declared = this.declaredOf(file, lineNumber, result.case_id)
    const count = result.samples.length
    const least = declared.min_samples ?? declared.samples
    const fits = result.verdict === 'error' ? count <= declared.samples : count >= least && count <= declared.samples
    if (!fits) {
      const takes = least === declared.samples ? `${declared.samples}` : `${least} to ${declared.samples}`
      throw this.corrupt(file, lineNumber, `is a record of case ${result.case_id} with ${count} sample(s), and run ${this.place.key} takes ${takes} per case; it is never merged`)
    }
  }

  private addHeader(leg: number, file: string, line: Buffer): void {
    let decoded: DecodedLine = decodeLine(line, this.place)
    if (!decoded.ok && !('unknownVersion' in decoded)) decoded = sniffUnknownVersion(line) ?? decoded
    if (!decoded.ok) {
      if ('unknownVersion' in decoded) throw this.unknownVersion(file, decoded.unknownVersion)
      throw this.corrupt(file, 1, decoded.why)
    }
    if (decoded.record.kind !== 'header') throw this.corrupt(file, 1, `is a ${decoded.record.kind} record where the leg's header belongs`)
    const header = decoded.record.header
    if (header.leg !== leg) throw this.corrupt(file, 1, `is the header of leg ${header.leg}, but the file is leg ${leg}`)
    const { tenant, suite, key } = this.place
    const headerKey = keyFor(header.created_at, header.config_hash)
    if (header.tenant !== tenant || header.suite !== suite || headerKey !== key) {
      throw this.corrupt(file, 1, `is the header of run ${headerKey} of suite ${header.suite} (tenant ${header.tenant}), not of the run filed here`)
    }
    this.leases.push({ leg, lease: header.lease, since: header.started_at, live: leaseHolds(header.lease) })
    if (this.header === undefined) {
      this.header = header
      this.headerLeg = leg
      return
    }
    for (const field of RUN_DEFINING_FIELDS) {
      if (canonicalJson(header[field]) !== canonicalJson(this.header[field])) {
        throw this.corrupt(file, 1, `has a ${field} that differs from leg ${this.headerLeg}'s: the legs are not one run`, [1, field])
      }
    }
  }

  private corrupt(file: string, line: number, why: string, path: readonly (string | number)[] = [line]): CorruptJournalError {
    const { tenant, suite, key } = this.place
    return new CorruptJournalError(
      `refused the journal of run ${key} (suite ${suite}, tenant ${tenant}): ${file} line ${line} ${why}; the journal is left on disk as it is`,
      `inspect ${file} line ${line}; a journal is never repaired: to give up the cases it holds, ${this.giveUp(file, key)}, then run the suite again`,
      path,
    )
  }

  private unknownVersion(file: string, version: unknown): UnknownJournalVersionError {
    const { suite, key } = this.place
    const shown = JSON.stringify(version) ?? 'undefined'
    return new UnknownJournalVersionError(
      `refused the journal of run ${key} (suite ${suite}): ${file} has journal_version ${shown}, and this digline reads journal_version ${JOURNAL_VERSION}; it is left on disk and never deleted`,
      `finish run ${key} with a digline that reads journal_version ${shown}, or ${this.giveUp(file, key)} by hand to give up the cases it holds`,
      ['journal_version'],
    )
  }

  /** The journal a reader gives once the legs are folded: with its cases' results, or, refused, with none. */
  pending<B extends JournalBase>(base: B, refusal: DiglineErrorData | undefined): B & Pending {
    if (refusal !== undefined) return { ...base, declared: undefined, refusal, done: new Map(), causes: new Map(), observed: emptyObserved() }
    return { ...base, declared: this.declared, refusal: undefined, done: this.done, causes: this.causes, observed: this.observed }
  }

  /** pending() for a planner that folded `casesOnly`: the ids of the cases in place of their results. */
  pendingCases<B extends JournalBase>(base: B, refusal: DiglineErrorData | undefined): B & PendingCases {
    if (refusal !== undefined) return { ...base, declared: undefined, refusal, caseIds: new Set() }
    return { ...base, declared: this.declared, refusal: undefined, caseIds: this.caseIds }
  }

  /** Folds legs in order, passing over provably empty ones; throws the refusal, including for legs none of which holds a whole header. */
  addLegs(legs: readonly LegBytes[]): void {
    for (const leg of legs) if (!isProvablyEmpty(leg.bytes)) this.addLeg(leg)
    const first = legs[0]
    if (this.header === undefined && first !== undefined && legs.some((l) => !isProvablyEmpty(l.bytes))) {
      throw this.corrupt(first.file, 1, 'is missing: no leg holds a whole header (its process was killed while creating it), so the journal holds no judged case')
    }
  }
}

/** How a person gives up a journal's cases: the file store's leg files by pattern, unless the backend says otherwise. */
function defaultGiveUp(file: string, key: string): string {
  return `remove ${join(dirname(file), `${key}.*.jsonl`)}`
}
