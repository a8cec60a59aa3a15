// The one registry of digline's errors: every layer's family, collected for recognition (and so the
// exit codes) and for docs/refusals.md. It sits at the lowest layer, so every layer can recognise
// an error, and may import every layer's errors.ts because those are leaves that import only
// src/errors/base.ts (.dependency-cruiser.cjs holds both; ADR 0140). A family left out here is
// caught by test/unit/refusals-table.test.ts.
import { INTERNAL_ERRORS, type DiglineError, type ErrorEntry, type FailureClass, type RefusalClass } from './base.js'
import { SUITE_REFUSALS } from '../suite/errors.js'
import { DRIVER_FAILURES } from '../driver/errors.js'
import { MODEL_REFUSALS } from '../models/errors.js'
import { STORE_REFUSALS, STORE_FAILURES } from '../store/errors.js'
import { FILE_STORE_REFUSALS } from '../store/file/errors.js'
import { TEAM_STORE_REFUSALS, TEAM_STORE_FAILURES } from '../store/postgres/errors.js'
import { HOST_REFUSALS } from '../host/errors.js'
import { LAUNCH_REFUSALS, LAUNCH_FAILURES } from '../host/launch/errors.js'
import { LIFECYCLE_REFUSALS, LIFECYCLE_FAILURES } from '../host/lifecycle/errors.js'
import { PLAN_REFUSALS } from '../host/plan/errors.js'
import { PUBLISH_REFUSALS, PUBLISH_FAILURES } from '../host/publish/errors.js'
import { CLI_REFUSALS, CLI_FAILURES } from '../cli/errors.js'
import { PLUGIN_REFUSALS } from '../../plugin/errors.js'
import { REPORT_REFUSALS } from '../report/errors.js'

export { INTERNAL_ERRORS }

/** Every refusal digline can raise. A test holds it complete against the classes of every errors.ts. */
export const REFUSALS = {
  ...SUITE_REFUSALS,
  ...MODEL_REFUSALS,
  ...STORE_REFUSALS,
  ...FILE_STORE_REFUSALS,
  ...TEAM_STORE_REFUSALS,
  ...HOST_REFUSALS,
  ...LAUNCH_REFUSALS,
  ...LIFECYCLE_REFUSALS,
  ...PLAN_REFUSALS,
  ...PUBLISH_REFUSALS,
  ...CLI_REFUSALS,
  ...REPORT_REFUSALS,
  ...PLUGIN_REFUSALS,
} as const satisfies Record<string, ErrorEntry<RefusalClass>>

/** Errors that are not refusals: the run could not be judged. Exit 2. */
export const FAILURES = {
  ...DRIVER_FAILURES,
  ...STORE_FAILURES,
  ...TEAM_STORE_FAILURES,
  ...LAUNCH_FAILURES,
  ...LIFECYCLE_FAILURES,
  ...PUBLISH_FAILURES,
  ...CLI_FAILURES,
} as const satisfies Record<string, ErrorEntry<FailureClass>>

export const ALL_ERRORS: Readonly<Record<string, ErrorEntry<abstract new (...args: never[]) => DiglineError>>> = { ...REFUSALS, ...FAILURES, ...INTERNAL_ERRORS }
