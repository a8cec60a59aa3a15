// The package a user installs: what it imports at run time it declares, what it declares it uses,
// it carries its licence, and its stack frames point at files it ships. The install is the one
// test/helpers/installed-package.ts makes: npm, the packed tarball, the user's peers, no hoisting.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { countingSuite, installRoot, makeProject } from '../helpers/project.js'

const installed = () => join(installRoot(), 'node_modules', 'digline')

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)]))
}

/** The package a bare specifier names: `@scope/name` or `name`, without a subpath. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!
}

test('the CLI reads the Vitest config in a project where only declared dependencies resolve', async () => {
  const project = makeProject({ 'evals/s.eval.ts': countingSuite({ name: 's', cases: 2 }) })
  const listed = await project.digline(['list', '--suite', 's'])
  expect(listed.code, listed.stdout + listed.stderr).toBe(0)
  expect(listed.stderr).not.toMatch(/Cannot find (package|module)/)
})

test('every package the shipped code imports is declared, and every declared dependency is used', () => {
  const manifest = JSON.parse(readFileSync(join(installed(), 'package.json'), 'utf8')) as { dependencies: Record<string, string>; peerDependencies: Record<string, string> }
  const declared = new Set([...Object.keys(manifest.dependencies), ...Object.keys(manifest.peerDependencies), 'digline'])
  const builtins = new Set(builtinModules)
  const imported = new Map<string, string>()
  for (const file of filesUnder(join(installed(), 'dist')).filter((f) => f.endsWith('.js'))) {
    const text = readFileSync(file, 'utf8')
    // tsc writes '…', the bundle (ADR 0550) "…"
    for (const m of text.matchAll(
      /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'".][^'"]*)['"]|(?:^|\n)\s*import\s*['"]([^'".][^'"]*)['"]|\bimport\(\s*['"]([^'".][^'"]*)['"]\s*\)/g,
    )) {
      const specifier = (m[1] ?? m[2] ?? m[3])!
      if (specifier.startsWith('node:') || builtins.has(specifier)) continue
      if (!imported.has(packageOf(specifier))) imported.set(packageOf(specifier), file.slice(installed().length + 1))
    }
  }
  const undeclared = [...imported].filter(([name]) => !declared.has(name))
  expect(undeclared, 'imported by the shipped code but not declared').toEqual([])
  const unused = Object.keys(manifest.dependencies).filter((name) => !imported.has(name))
  expect(unused, 'declared as dependencies but never imported').toEqual([])
})

test('the package carries its MIT licence, and no source map pointing at sources it does not ship', () => {
  const licence = readFileSync(join(installed(), 'LICENSE'), 'utf8')
  expect(licence).toMatch(/^MIT License/)
  expect(licence).toContain('Copyright (c) 2026 the digline authors')
  const files = filesUnder(join(installed(), 'dist'))
  const maps = files.filter((f) => f.endsWith('.map'))
  const mapped = files.filter((f) => f.endsWith('.js') && readFileSync(f, 'utf8').includes('//# sourceMappingURL='))
  const unshipped = [...maps, ...mapped].filter(() => !existsSync(join(installed(), 'src')))
  expect(unshipped.map((f) => f.slice(installed().length + 1))).toEqual([])
})
