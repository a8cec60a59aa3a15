// Tool replay's recordings on PostgreSQL (SPEC §16): one row per recording in
// digline_tool_recordings, keyed by tenant, suite, case and key, with the run that recorded it (the
// delete of that run removes the row). A row that does not check out is not served, as on files.
import { assertSafeSegment } from '../../suite/assert-safe-segment.js'
import { assertRecordingOfItsParts, assertToolRecordingKey, type ToolRecording } from '../../suite/tool-replay.js'
import { recordingOf } from '../tool-recording-shape.js'
import type { PgConnection } from './connection.js'

function fromRow(row: Record<string, unknown>, caseId: string): ToolRecording | undefined {
  try {
    const recording = recordingOf(JSON.parse(String(row.recording)), caseId)
    return recording?.key === row.key ? recording : undefined
  } catch {
    return undefined
  }
}

export class PgToolRecordings {
  constructor(private readonly db: PgConnection) {}

  async toolRecording(tenant: string, suite: string, caseId: string, key: string): Promise<ToolRecording | undefined> {
    assertSafeSegment('tenant', tenant)
    assertSafeSegment('suite', suite)
    assertSafeSegment('case', caseId)
    assertToolRecordingKey(key)
    const { rows } = await this.db.query(
      'reading a tool recording',
      'SELECT key, recording FROM digline_tool_recordings WHERE tenant = $1 AND suite = $2 AND case_id = $3 AND key = $4',
      [tenant, suite, caseId, key],
    )
    return rows[0] === undefined ? undefined : fromRow(rows[0], caseId)
  }

  async recordToolCall(tenant: string, suite: string, recording: ToolRecording): Promise<void> {
    assertSafeSegment('tenant', tenant)
    assertSafeSegment('suite', suite)
    assertSafeSegment('case', recording.case_id)
    assertSafeSegment('key', recording.run)
    assertToolRecordingKey(recording.key)
    assertRecordingOfItsParts(recording)
    await this.db.query(
      'filing a tool recording',
      `INSERT INTO digline_tool_recordings (tenant, suite, case_id, key, run, recorded_at, recording) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (tenant, suite, case_id, key) DO UPDATE SET run = EXCLUDED.run, recorded_at = EXCLUDED.recorded_at, recording = EXCLUDED.recording`,
      [tenant, suite, recording.case_id, recording.key, recording.run, recording.recorded_at, JSON.stringify(recording)],
    )
  }

  async toolRecordingsOf(tenant: string, suite: string, caseId: string): Promise<ToolRecording[]> {
    assertSafeSegment('tenant', tenant)
    assertSafeSegment('suite', suite)
    assertSafeSegment('case', caseId)
    const { rows } = await this.db.query(
      "listing a case's tool recordings",
      'SELECT key, recording FROM digline_tool_recordings WHERE tenant = $1 AND suite = $2 AND case_id = $3 ORDER BY recorded_at DESC, key ASC',
      [tenant, suite, caseId],
    )
    return rows.flatMap((row) => fromRow(row, caseId) ?? [])
  }

  async forgetRunRecordings(tenant: string, suite: string, key: string): Promise<number> {
    assertSafeSegment('tenant', tenant)
    assertSafeSegment('suite', suite)
    assertSafeSegment('key', key)
    const { rowCount } = await this.db.query("forgetting a run's tool recordings", 'DELETE FROM digline_tool_recordings WHERE tenant = $1 AND suite = $2 AND run = $3', [
      tenant,
      suite,
      key,
    ])
    return rowCount ?? 0
  }
}
