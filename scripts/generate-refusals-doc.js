// Writes docs/refusals.md from the built error tables (run `npm run build` first).
import { writeFileSync } from 'node:fs'
import * as tables from '../dist/src/errors/catalogue.js'
import { renderRefusalsDoc } from './refusals-doc.js'

writeFileSync(new URL('../docs/refusals.md', import.meta.url), renderRefusalsDoc(tables))
