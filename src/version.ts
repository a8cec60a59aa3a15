// Kept in step with package.json by test/unit/version.test.ts.
export const DIGLINE_VERSION = '0.1.0'
