// Every temporary directory digline makes (a launch's claims, the suite manifest, the plan and
// progress reports of digline mcp, the model slot socket) is made here, in the directory the
// environment names: one that is missing, a file or not writable is refused by the variable's name.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { TempDirUnusableError } from './errors.js'

/** The variables Node's os.tmpdir() reads, in its order. */
const TEMP_VARIABLES = process.platform === 'win32' ? ['TEMP', 'TMP'] : ['TMPDIR', 'TMP', 'TEMP']

/** Why a directory cannot be made where the temporary directory points. */
const UNUSABLE: Record<string, string> = {
  ENOENT: 'it does not exist',
  ENOTDIR: 'it is not a directory',
  EACCES: 'it is not writable by this user',
  EPERM: 'it is not writable by this user',
  EROFS: 'it is on a read-only file system',
}

/** A new directory `<tmpdir>/<prefix>XXXXXX`; TempDirUnusableError when the temporary directory cannot hold one. */
export function makeTempDir(prefix: string, env: NodeJS.ProcessEnv = process.env): string {
  const base = tmpdir()
  try {
    return mkdtempSync(join(base, prefix))
  } catch (error) {
    const why = UNUSABLE[(error as NodeJS.ErrnoException).code ?? '']
    if (why === undefined) throw error
    const variable = TEMP_VARIABLES.find((v) => (env[v] ?? '') !== '')
    const named = variable ?? TEMP_VARIABLES[0]!
    throw new TempDirUnusableError(
      `digline could not make a temporary directory in ${base}${variable === undefined ? ' (the system default: no TMPDIR, TMP or TEMP is set)' : ` (from ${variable})`}: ${why}; nothing was called`,
      variable === undefined
        ? `Set ${named} to a writable directory (\`export ${named}=$HOME/tmp\` after \`mkdir -p $HOME/tmp\`), then run the command again`
        : `Point ${variable} at a writable directory (\`export ${variable}=/tmp\`) or unset it (\`unset ${variable}\`), then run the command again`,
      [named],
    )
  }
}
