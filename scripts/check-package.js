// The package as npm would publish it, checked by tools (issue 30 item 4): packed once, then
// publint and @arethetypeswrong/cli read that tarball, and every relative link of the shipped
// markdown must name a file the tarball holds. Part of `npm run lint`; it builds first (tsc -b is
// incremental, so a built tree costs nothing; the bundle takes about a second). Neither tool touches the network.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, normalize } from 'node:path'

const run = (command, args, options = {}) => execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], ...options })
const bin = (name) => join(import.meta.dirname, '..', 'node_modules', '.bin', name)

run(bin('tsc'), ['-b', 'tsconfig.build.json'])
run(process.execPath, [join(import.meta.dirname, 'bundle.js')])
const dir = mkdtempSync(join(tmpdir(), 'digline-pack-'))
let failed = false
try {
  const [packed] = JSON.parse(run('npm', ['pack', '--json', '--silent', '--pack-destination', dir]))
  const tarball = join(dir, packed.filename)
  const shipped = new Set(packed.files.map((f) => f.path))
  const shippedDirs = new Set(
    [...shipped].flatMap((path) =>
      path
        .split('/')
        .slice(0, -1)
        .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
    ),
  )

  const broken = []
  for (const file of [...shipped].filter((path) => path.endsWith('.md'))) {
    const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '')
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target) || target.startsWith('#')) continue
      const path = normalize(join(dirname(file), decodeURIComponent(target.split('#')[0]))).replace(/\/$/, '')
      if (!shipped.has(path) && !shippedDirs.has(path)) broken.push(`${file}: ${target}`)
    }
  }
  if (broken.length > 0) {
    failed = true
    console.error(`the packed markdown links to files the tarball does not hold:\n${broken.map((b) => `  ${b}`).join('\n')}`)
  }
  for (const [name, args] of [
    ['publint', ['run', tarball, '--strict']],
    ['attw', [tarball, '--profile', 'esm-only', '--format', 'table-flipped']],
  ]) {
    try {
      run(bin(name), args)
    } catch (error) {
      failed = true
      console.error(`${name} found problems in the packed package:\n${error.stdout ?? ''}`)
    }
  }
  console.log(`package: ${packed.files.length} files, ${(packed.size / 1e6).toFixed(1)} MB packed, ${(packed.unpackedSize / 1e6).toFixed(1)} MB unpacked`)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
if (failed) process.exitCode = 1
