// Starts `vitest run` in the project for a command that hands the workers a directive, and returns
// its exit code (a signal, or a code outside the contract, reads as 2: not judged).
import { spawn } from 'node:child_process'
import { exitCodeForChild, type ExitCode } from '../../exit-codes.js'
import { vitestBin } from './vitest-bin.js'

/** Where vitest runs and where its end by a signal is told. */
export interface LaunchIo {
  cwd: string
  stderr: (text: string) => void
}

export interface LaunchOptions {
  /** Vitest's stdout and stderr go here instead of the terminal (a front end that owns its stdout). */
  output?: (text: string) => void
  /** Stops the launch as SIGTERM would: the calls in flight are aborted and the journal stays resumable. */
  signal?: AbortSignal
}

export function launchVitest(io: LaunchIo, args: readonly string[], env: NodeJS.ProcessEnv, command: string, options: LaunchOptions = {}): Promise<ExitCode> {
  const { output, signal } = options
  const child = spawn(process.execPath, [vitestBin(io.cwd), 'run', ...args], { cwd: io.cwd, env, stdio: output === undefined ? 'inherit' : ['ignore', 'pipe', 'pipe'] })
  if (output !== undefined) {
    child.stdout?.on('data', (d: Buffer) => output(d.toString()))
    child.stderr?.on('data', (d: Buffer) => output(d.toString()))
  }
  // Ctrl-C or SIGTERM stops vitest (which aborts its calls and exits 2); digline waits for it (SPEC §5).
  const forward = (sig: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(sig)
  }
  const stop = () => forward('SIGTERM')
  process.on('SIGINT', forward)
  process.on('SIGTERM', forward)
  if (signal?.aborted) stop()
  signal?.addEventListener('abort', stop, { once: true })
  return new Promise<ExitCode>((resolvePromise, reject) => {
    child.on('error', reject)
    child.on('close', (code, sig) => {
      process.off('SIGINT', forward)
      process.off('SIGTERM', forward)
      signal?.removeEventListener('abort', stop)
      if (sig !== null) io.stderr(`digline ${command}: vitest was ended by ${sig}`)
      resolvePromise(exitCodeForChild(code, sig))
    })
  })
}
