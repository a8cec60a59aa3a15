// What a suite file imports: `import { evalSuite, scorers } from 'digline'`.
export { evalSuite, VERDICT_TEST } from './eval-suite.js'
export { onCase } from './case-hooks.js'
export { dataset } from './dataset.js'
export type { DatasetCase, DatasetFormat, DatasetOptions, DatasetRow, RowPlace } from '../src/suite/dataset.js'
export { scorers } from '../src/scorers/index.js'
export type * from '../src/suite/types.js'
export type { CaseResult, RunDocument, Aggregates } from '../src/document/schema.js'
export type { CaseProgress } from '../src/document/case-progress.js'
