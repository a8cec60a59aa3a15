// `digline import` (SPEC §10, docs/adr/0047): run documents from files into the configured store,
// whatever its backend. Plan, then write: every file is read and checked against the store before
// the first document is filed, so a refusal files nothing. A run already filed with the same bytes
// is left as it is and said so; the same key with other content is refused.
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { serializeRun } from '../../document/serialize.js'
import type { RunDocument } from '../../document/schema.js'
import { ImportConflictError } from './errors.js'
import { RunNotFoundError, TenantMismatchError } from '../../store/errors.js'
import { UsageError } from '../errors.js'
import type { Store } from '../../store/contract.js'
import { parseJsonText, unreadableRun, validateDocument } from '../../store/run-checks.js'
import { assertSafeSegment } from '../../suite/assert-safe-segment.js'
import { isSafeSegment } from '../../suite/safe-segment.js'
import { keyFor } from '../../suite/keys.js'
import { assertNotRemoved } from './removed-runs.js'
import { assertConsistentRun } from './run-consistency.js'
import { assertNotRetired } from './retired-suites.js'
import { assertNoLiveWriter } from '../project/pending-journals.js'

export interface ImportedRun {
  file: string
  suite: string
  key: string
  /** filed: written now. already: the store holds these very bytes under the key. duplicate: an earlier file of this import is the same document. */
  outcome: 'filed' | 'already' | 'duplicate'
}

interface Planned extends ImportedRun {
  doc: RunDocument
  text: string
}

async function readDocument(file: string): Promise<{ doc: RunDocument; text: string }> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    throw new UsageError(
      `digline import: ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}); nothing was imported`,
      'Pass files written by `digline export`.',
      [file],
    )
  }
  const doc = validateDocument(parseJsonText(text, file), file)
  // Filed as given, so it must be the bytes digline writes: an edited or re-indented file would come back other than it went in.
  if (serializeRun(doc) !== text) throw unreadableRun(file, 'it is not byte for byte a run document as digline writes it (was it edited or re-formatted?); nothing was imported')
  // The bytes are digline's; so must the content be: nothing filed contradicts itself (promote would build on it).
  assertConsistentRun(doc, file)
  return { doc, text }
}

async function filedText(store: Store, tenant: string, suite: string, key: string): Promise<string | undefined> {
  try {
    return serializeRun(await store.readRun(tenant, suite, key))
  } catch (error) {
    if (error instanceof RunNotFoundError) return undefined
    throw error
  }
}

function conflict(file: string, suite: string, key: string, other: string): ImportConflictError {
  return new ImportConflictError(
    `refused to import ${file}: run ${key} of suite ${suite} is ${other} with other content, and a run is never overwritten; nothing was imported`,
    `digline show --suite ${suite} --run ${key} --json (to compare it with ${file}), then import without the file you do not want`,
    ['key'],
  )
}

async function plan(store: Store, tenant: string, files: readonly string[], cwd: string): Promise<Planned[]> {
  const planned: Planned[] = []
  for (const given of files) {
    const file = resolve(cwd, given)
    const { doc, text } = await readDocument(file)
    const { suite } = doc
    const key = keyFor(doc.created_at, doc.config_hash)
    if (doc.tenant !== tenant) {
      throw new TenantMismatchError(
        `refused to import ${file}: it is a run of tenant ${JSON.stringify(doc.tenant)}, and this store is opened for tenant ${JSON.stringify(tenant)}; nothing was imported`,
        isSafeSegment(doc.tenant)
          ? `digline import --tenant ${doc.tenant} ${given} (if that tenant is meant), or leave the file out`
          : `leave the file out: its tenant is not a name digline accepts, so no store can file it`,
        ['tenant'],
      )
    }
    assertSafeSegment('suite', suite)
    assertSafeSegment('key', key)
    await assertNotRetired(store, tenant, suite, `import run ${key} of suite ${suite} from ${file}`)
    await assertNotRemoved(store, tenant, suite, key, 'import')
    if (doc.rejudged_from !== undefined) await assertNotRemoved(store, tenant, doc.rejudged_from_suite ?? suite, doc.rejudged_from, 'import a replay of')
    const earlier = planned.find((p) => p.suite === suite && p.key === key)
    if (earlier !== undefined) {
      if (earlier.text !== text) throw conflict(file, suite, key, `also in ${earlier.file}`)
      planned.push({ file, suite, key, outcome: 'duplicate', doc, text })
      continue
    }
    // A run being measured under the same key in this store would be written over when it finishes.
    const journal = (await store.pending(tenant, suite)).find((p) => p.key === key && !p.finished)
    if (journal !== undefined) assertNoLiveWriter(journal)
    const filed = await filedText(store, tenant, suite, key)
    if (filed !== undefined && filed !== text) throw conflict(file, suite, key, 'already filed in the store')
    planned.push({ file, suite, key, outcome: filed === undefined ? 'filed' : 'already', doc, text })
  }
  return planned
}

export async function importRuns(store: Store, tenant: string, files: readonly string[], cwd: string): Promise<ImportedRun[]> {
  assertSafeSegment('tenant', tenant)
  const planned = await plan(store, tenant, files, cwd)
  for (const item of planned) if (item.outcome === 'filed') await store.writeRun(item.doc)
  return planned.map(({ file, suite, key, outcome }) => ({ file, suite, key, outcome }))
}
