// Starts `vitest run` in the project for a command that hands the workers a directive, and returns
// its exit code (a signal, or a code outside the contract, reads as 2: not judged).
import { spawn } from 'node:child_process'
import { exitCodeForChild, type ExitCode } from '../exit-codes.js'
import { vitestBin } from './vitest-bin.js'

/** Where vitest runs and where its end by a signal is told. */
export interface LaunchIo {
  cwd: string
  stderr: (text: string) => void
}

export function launchVitest(io: LaunchIo, args: readonly string[], env: NodeJS.ProcessEnv, command: string): Promise<ExitCode> {
  const child = spawn(process.execPath, [vitestBin(io.cwd), 'run', ...args], { cwd: io.cwd, env, stdio: 'inherit' })
  // Ctrl-C or SIGTERM stops vitest (which aborts its calls and exits 2); digline waits for it (SPEC §5).
  const forward = (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal)
  }
  process.on('SIGINT', forward)
  process.on('SIGTERM', forward)
  return new Promise<ExitCode>((resolvePromise, reject) => {
    child.on('error', reject)
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward)
      process.off('SIGTERM', forward)
      if (signal !== null) io.stderr(`digline ${command}: vitest was ended by ${signal}`)
      resolvePromise(exitCodeForChild(code, signal))
    })
  })
}
