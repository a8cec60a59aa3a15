// Writes docs/refusals.md from the built REFUSALS and FAILURES tables (run `npm run build` first).
import { writeFileSync } from 'node:fs'
import { renderRefusalsDoc } from '../dist/src/refusals-doc.js'

writeFileSync(new URL('../docs/refusals.md', import.meta.url), renderRefusalsDoc())
