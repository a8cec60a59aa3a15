// Shared refusal helpers of the store tests; the Store contract suite itself is test/store/contract/.
export { HOSTILE_NAMES, refusalOf } from './contract/harness.js'
