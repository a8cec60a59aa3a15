// Which tool replay mode a launch runs in (SPEC §16): DIGLINE_TOOL_REPLAY wins (so CI can replay
// strictly what a developer recorded without editing the suite), then the suite's `toolReplay`,
// then off.
import { InvalidOptionsError } from '../../suite/errors.js'
import { TOOL_REPLAY_MODES, type ToolReplayMode } from '../../suite/tool-replay.js'
import type { ResolvedSuite } from '../../suite/types.js'

export const TOOL_REPLAY_ENV = 'DIGLINE_TOOL_REPLAY'

export function toolReplayMode(suite: Pick<ResolvedSuite, 'toolReplay'>, env: NodeJS.ProcessEnv): ToolReplayMode {
  const raw = env[TOOL_REPLAY_ENV]
  if (raw !== undefined && raw !== '') {
    if ((TOOL_REPLAY_MODES as readonly string[]).includes(raw)) return raw as ToolReplayMode
    throw new InvalidOptionsError(
      `${TOOL_REPLAY_ENV}=${JSON.stringify(raw.slice(0, 40))} was refused: it is off, record, replay or strict`,
      `Set ${TOOL_REPLAY_ENV}=record (or replay, strict, off), or unset it.`,
      [TOOL_REPLAY_ENV],
    )
  }
  return suite.toolReplay ?? 'off'
}
