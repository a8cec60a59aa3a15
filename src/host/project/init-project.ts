// `digline init`: the plan of the files a new project needs, then the writes. The whole plan is
// checked before anything is written, so a refusal lists every file in the way and changes nothing.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { STORE_GITIGNORE } from '../../store/store-gitignore.js'
import { InitWouldOverwriteError, UsageError } from '../errors.js'
import { configTemplate, DATASET_TEMPLATE, SUITE_TEMPLATE, WORKFLOW_TEMPLATE } from './init-templates.js'
import { isSafeSegment, SAFE_SEGMENT_RULE } from '../../suite/safe-segment.js'

export interface InitFile {
  /** Relative to the project directory, with forward slashes. */
  path: string
  text: string
}

export interface InitPlan {
  dir: string
  tenant: string
  /** The package is not `"type": "module"`: the config is written as .mts, which Vite loads as ESM (ADR 0190). */
  commonJs: boolean
  files: InitFile[]
  /** The two commands to run next. */
  next: [string, string]
}

/** Any of these beside ours would shadow our config, or be shadowed by it. */
const CONFIG_FILES = ['ts', 'mts', 'cts', 'js', 'mjs', 'cjs'].flatMap((ext) => [`vitest.config.${ext}`, `vite.config.${ext}`])

interface PackageFacts {
  type: string | undefined
  name: string | undefined
  dependencies: Set<string>
}

function readPackage(dir: string): PackageFacts | undefined {
  const file = join(dir, 'package.json')
  if (!existsSync(file)) return undefined
  let json: Record<string, unknown>
  try {
    json = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
  } catch (error) {
    throw new UsageError(
      `digline init: ${file} is not valid JSON (${(error as Error).message})`,
      'Fix package.json (or remove it and run `npm init -y`), then run `npx digline init` again.',
    )
  }
  const names = (field: unknown) => (field !== null && typeof field === 'object' ? Object.keys(field) : [])
  return {
    type: typeof json.type === 'string' ? json.type : undefined,
    name: typeof json.name === 'string' ? json.name : undefined,
    dependencies: new Set([...names(json.dependencies), ...names(json.devDependencies)]),
  }
}

/** The package's name as a tenant: its last segment, with what a path segment cannot hold replaced. */
function tenantFrom(name: string | undefined): string {
  const base = (name ?? '')
    .split('/')
    .pop()!
    .replace(/[^A-Za-z0-9._-]/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 128)
  return isSafeSegment(base) ? base : 'local'
}

export function planInit(dir: string, tenant?: string): InitPlan {
  if (tenant !== undefined && !isSafeSegment(tenant)) {
    throw new UsageError(`digline init: --tenant ${JSON.stringify(tenant)} is not one safe path segment (${SAFE_SEGMENT_RULE})`, 'Pass a tenant such as `--tenant acme`.', [
      '--tenant',
    ])
  }
  const pkg = readPackage(dir)
  const commonJs = pkg?.type !== 'module'
  const chosenTenant = tenant ?? tenantFrom(pkg?.name)
  const files: InitFile[] = [
    { path: commonJs ? 'vitest.config.mts' : 'vitest.config.ts', text: configTemplate(chosenTenant) },
    { path: 'evals/capitals.eval.ts', text: SUITE_TEMPLATE },
    { path: 'evals/capitals.jsonl', text: DATASET_TEMPLATE },
    { path: '.digline/.gitignore', text: STORE_GITIGNORE },
    { path: '.github/workflows/digline.yml', text: WORKFLOW_TEMPLATE },
  ]
  const inTheWay = [...new Set([...CONFIG_FILES, ...files.map((f) => f.path)])].filter((path) => existsSync(join(dir, path)))
  if (inTheWay.length > 0) {
    throw new InitWouldOverwriteError(
      `digline init refused to overwrite ${inTheWay.length === 1 ? 'a file that exists' : `${inTheWay.length} files that exist`} in ${dir}: ${inTheWay.join(', ')}; nothing was written`,
      `Move ${inTheWay.length === 1 ? 'it' : 'them'} aside (or add digline to your own config by hand: docs/guide.md), then run \`npx digline init\` again.`,
    )
  }
  const installed = pkg !== undefined && pkg.dependencies.has('digline') && pkg.dependencies.has('vitest')
  const next: [string, string] = installed ? ['npx vitest run', 'npx digline promote --suite capitals --run latest'] : ['npm install --save-dev digline vitest', 'npx vitest run']
  return { dir, tenant: chosenTenant, commonJs, files, next }
}

/** Writes the plan's files, each created exclusively; a file that appeared since the plan undoes the ones written. */
export function applyInit(plan: InitPlan): void {
  const written: string[] = []
  try {
    for (const file of plan.files) {
      const path = join(plan.dir, file.path)
      mkdirSync(dirname(path), { recursive: true })
      writeFileSync(path, file.text, { flag: 'wx' })
      written.push(path)
    }
  } catch (error) {
    for (const path of written) rmSync(path, { force: true })
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new InitWouldOverwriteError(
        `digline init refused to overwrite ${(error as NodeJS.ErrnoException).path ?? 'a file'}: it appeared while init was writing; the files init had written were removed`,
        'Run `npx digline init` again.',
      )
    }
    throw error
  }
}
