// `digline …` through the CLI's main() in the test's own process (ADR 0470), with the environment
// test/helpers/project.ts gives a spawned bin, for a command whose output needs no process of its
// own: bin.ts only writes a line per text and sets the exit code, so the text is the bin's.
import { main } from '../../src/cli/main.js'
import type { ProcessResult, Project } from '../helpers/project.js'

export async function inProcess(project: Project, argv: string[], env: NodeJS.ProcessEnv = {}): Promise<Omit<ProcessResult, 'signal'>> {
  let stdout = ''
  let stderr = ''
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(VITEST|TEST$|NODE_ENV$|DIGLINE_)/.test(k)))
  const code = await main(argv, {
    cwd: project.dir,
    env: { ...clean, NO_COLOR: '1', FORCE_COLOR: '0', CI: '1', ...env },
    stdout: (text) => void (stdout += `${text}\n`),
    stderr: (text) => void (stderr += `${text}\n`),
  })
  return { code, stdout, stderr }
}
