// The suite layer's refusals: a name that is no safe path segment, an invalid suite definition,
// invalid plugin options or environment.
// A leaf: it imports only the errors base, so src/errors/catalogue.ts can collect it (ADR 0140).
import { DiglineRefusal, type RefusalFamily } from '../errors/base.js'

export class PathRefusedError extends DiglineRefusal {
  readonly name = 'PathRefusedError'
}
export class InvalidSuiteError extends DiglineRefusal {
  readonly name = 'InvalidSuiteError'
}
export class InvalidOptionsError extends DiglineRefusal {
  readonly name = 'InvalidOptionsError'
}
export class InvalidDatasetError extends DiglineRefusal {
  readonly name = 'InvalidDatasetError'
}
export class EmptySliceError extends DiglineRefusal {
  readonly name = 'EmptySliceError'
}
export class VariantNameCollisionError extends DiglineRefusal {
  readonly name = 'VariantNameCollisionError'
}
export class TempDirUnusableError extends DiglineRefusal {
  readonly name = 'TempDirUnusableError'
}

export const SUITE_REFUSALS = {
  VariantNameCollisionError: {
    error: VariantNameCollisionError,
    when: 'A suite named like a variant (pick.small) and variant small of suite pick would be filed under the same name: declared so in one launch, or a run, a baseline or a comparison of one against the other. Nothing was called, promoted or compared.',
    next: 'Rename the plain suite (say pick-small) or the variant in its suite file, then run again.',
  },
  TempDirUnusableError: {
    error: TempDirUnusableError,
    when: 'The temporary directory (TMPDIR, TMP or TEMP; /tmp when none is set) is not a directory digline can make its own directory in: it is missing, a file, or not writable. Nothing was called.',
    next: 'Point the variable the message names at a writable directory (`export TMPDIR=/tmp`), or unset it, then run the command again.',
  },
  PathRefusedError: {
    error: PathRefusedError,
    when: 'A tenant, suite or key is not one safe path segment, or a path resolves outside the store (symlinks included).',
    next: 'Use a name matching [A-Za-z0-9][A-Za-z0-9._-]* (at most 128 characters) and remove the symlink.',
  },
  InvalidSuiteError: {
    error: InvalidSuiteError,
    when: 'An evalSuite definition is invalid: an unsafe name, samples < 1, minAgreement outside 0..1, duplicate case ids, a bad scorer or target.',
    next: 'Fix the field named in the message in the suite file, then run `vitest run` again.',
  },
  InvalidDatasetError: {
    error: InvalidDatasetError,
    when: 'A dataset() file cannot be read, or one of its rows is bad: not JSON, not a CSV row of the header, a missing or invalid field, an id that is no safe path segment or that two rows share.',
    next: 'Fix the file, line or row and the field the message names (or the dataset map), then run `vitest run` again.',
  },
  EmptySliceError: {
    error: EmptySliceError,
    when: 'A launch by tag (`digline run --tag T`, DIGLINE_TAGS) found no case of any suite that carries the tag: nothing was run or filed.',
    next: "Check the tag against the cases' tags (a dataset's `tags` field or column), or run without --tag.",
  },
  InvalidOptionsError: {
    error: InvalidOptionsError,
    when: 'The digline() plugin options are invalid, or DIGLINE_CREATED_AT / DIGLINE_ENVIRONMENT is malformed.',
    next: 'Fix the option named in the message in vitest.config.ts or the environment.',
  },
} as const satisfies RefusalFamily
