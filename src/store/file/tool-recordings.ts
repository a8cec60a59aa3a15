// Tool replay's recordings as files (SPEC §16): `.digline/<tenant>/tools/<suite>/<case>/<key>.json`,
// one recording per file, written atomically. Unlike the response cache they are not ignored by the
// generated .gitignore: committed, they let CI replay what a developer recorded (docs/adr/0320).
// A file that cannot be read, or is not the recording its name says, is not served.
import { join } from 'node:path'
import { PathRefusedError } from '../../suite/errors.js'
import { assertRecordingOfItsParts, assertToolRecordingKey, isToolRecordingKey, type ToolRecording } from '../../suite/tool-replay.js'
import { newestFirst, recordingOf } from '../tool-recording-shape.js'
import { errnoOf, type FsLayer } from './fs-layer.js'
import { guardedWrite } from './guarded-io.js'
import { writeStoreFile } from './write-store-file.js'
import { assertSafeSegment, type StorePaths } from './paths.js'

const SUFFIX = '.json'
export class FileToolRecordings {
  constructor(
    private readonly paths: StorePaths,
    private readonly fs: FsLayer,
  ) {}

  private file(tenant: string, suite: string, caseId: string, key: string): string {
    const dir = this.paths.toolsCaseDir(tenant, suite, caseId)
    assertToolRecordingKey(key)
    return join(dir, `${key}${SUFFIX}`)
  }

  async toolRecording(tenant: string, suite: string, caseId: string, key: string): Promise<ToolRecording | undefined> {
    const recording = await this.read(this.file(tenant, suite, caseId, key), caseId)
    return recording?.key === key ? recording : undefined
  }

  async recordToolCall(tenant: string, suite: string, recording: ToolRecording): Promise<void> {
    assertSafeSegment('case', recording.case_id)
    assertSafeSegment('key', recording.run)
    const file = this.file(tenant, suite, recording.case_id, recording.key)
    assertRecordingOfItsParts(recording)
    const dir = this.paths.toolsCaseDir(tenant, suite, recording.case_id)
    await guardedWrite(file, () => this.paths.assertInsideStore(this.fs, file))
    await writeStoreFile(this.fs, this.paths, dir, file, `${JSON.stringify(recording)}\n`)
  }

  async toolRecordingsOf(tenant: string, suite: string, caseId: string): Promise<ToolRecording[]> {
    const dir = this.paths.toolsCaseDir(tenant, suite, caseId)
    const out: ToolRecording[] = []
    for (const name of await this.list(dir)) {
      if (!name.endsWith(SUFFIX) || !isToolRecordingKey(name.slice(0, -SUFFIX.length))) continue
      const recording = await this.read(join(dir, name), caseId)
      if (recording !== undefined && `${recording.key}${SUFFIX}` === name) out.push(recording)
    }
    return out.sort(newestFirst)
  }

  async forgetRunRecordings(tenant: string, suite: string, key: string): Promise<number> {
    assertSafeSegment('key', key)
    const suiteDir = this.paths.toolsSuiteDir(tenant, suite)
    let removed = 0
    for (const caseId of await this.list(suiteDir)) {
      if (!isSafeName(caseId)) continue
      const caseDir = this.paths.toolsCaseDir(tenant, suite, caseId)
      for (const name of await this.list(caseDir)) {
        if (!name.endsWith(SUFFIX)) continue
        const recording = await this.read(join(caseDir, name), caseId)
        // A file that cannot be read names no run and is never served; it goes with the first delete that looks.
        if (recording !== undefined && recording.run !== key) continue
        await guardedWrite(caseDir, () => this.fs.unlink(join(caseDir, name))).catch((error: unknown) => {
          if (errnoOf(error) !== 'ENOENT') throw error
        })
        if (recording !== undefined) removed++
      }
    }
    return removed
  }

  private async list(dir: string): Promise<string[]> {
    await guardedWrite(dir, () => this.paths.assertInsideStore(this.fs, dir))
    try {
      return (await this.fs.readdir(dir)).sort()
    } catch (error) {
      if (errnoOf(error) === 'ENOENT' || errnoOf(error) === 'ENOTDIR') return []
      throw error
    }
  }

  private async read(file: string, caseId: string): Promise<ToolRecording | undefined> {
    try {
      await this.paths.assertInsideStore(this.fs, file)
      return recordingOf(JSON.parse((await this.fs.readFile(file)).toString('utf8')), caseId)
    } catch (error) {
      if (error instanceof PathRefusedError) throw error
      return undefined
    }
  }
}

function isSafeName(name: string): boolean {
  try {
    assertSafeSegment('case', name)
    return true
  } catch {
    return false
  }
}
