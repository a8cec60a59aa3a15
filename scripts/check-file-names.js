// Kebab-case file names, one concept per file: checked in CI as part of `npm run lint`.
import { execFileSync } from 'node:child_process'
import { basename } from 'node:path'

const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+)*$/
const CHECKED = /^(src|plugin|test|bench|scripts|examples)\/.*\.(ts|js|mjs|cjs)$/
const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' }).split('\n')
const bad = files.filter((file) => CHECKED.test(file) && !file.includes('/node_modules/') && !KEBAB.test(basename(file)))
if (bad.length > 0) {
  console.error(`file names must be kebab-case:\n${bad.map((f) => `  ${f}`).join('\n')}`)
  process.exitCode = 1
}
