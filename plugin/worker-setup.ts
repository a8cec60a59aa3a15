// The plugin's own setup file: runs in the worker before each test file and before the user's hook files.
import { clearCaseHooks } from './case-hooks.js'

clearCaseHooks()
