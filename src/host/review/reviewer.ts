// Who is labelling (SPEC §17): DIGLINE_REVIEWER when set, otherwise git's user.email in the project.
// Read once when the review mode starts; the page never says who it is.
import { execFile } from 'node:child_process'
import { REVIEW_LIMITS } from '../../store/review.js'
import { ReviewerUnknownError } from '../errors.js'

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/

function gitEmail(cwd: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('git', ['config', 'user.email'], { cwd, env, timeout: 10_000 }, (error, stdout) => resolve(error === null ? stdout.trim() : undefined))
  })
}

/** The reviewer's name as a review record holds it, or the refusal that says how to give one. */
export async function reviewerOf(cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  const given = env.DIGLINE_REVIEWER
  const fromEnv = given !== undefined && given.trim() !== ''
  const name = fromEnv ? given.trim() : await gitEmail(cwd, env)
  if (name !== undefined && name !== '' && name.length <= REVIEW_LIMITS.reviewer && !CONTROL.test(name)) return name
  const why = fromEnv
    ? `DIGLINE_REVIEWER is not one line of at most ${REVIEW_LIMITS.reviewer} characters`
    : name === undefined || name === ''
      ? "DIGLINE_REVIEWER is not set and git's user.email is not either"
      : `git's user.email is not one line of at most ${REVIEW_LIMITS.reviewer} characters`
  throw new ReviewerUnknownError(
    `refused to start the review mode: ${why}, and every label names the person who made it; nothing was started`,
    'set DIGLINE_REVIEWER=you@example.com (or run `git config user.email you@example.com`), then run `digline view --review` again',
    ['DIGLINE_REVIEWER'],
  )
}
