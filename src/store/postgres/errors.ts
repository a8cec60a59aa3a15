// What only the team store (PostgreSQL) raises.
// A leaf: it imports only the errors base, so src/errors/catalogue.ts can collect it (ADR 0140).
import { DiglineRefusal, DiglineFailure, type RefusalFamily, type FailureFamily } from '../../errors/base.js'

/** The team store's database was migrated by a newer digline than this one. Exit 64. */
export class TeamStoreSchemaTooNewError extends DiglineRefusal {
  readonly name = 'TeamStoreSchemaTooNewError'
}
/** The team store's server could not be reached, or refused the connection. Exit 2. */
export class TeamStoreUnreachableError extends DiglineFailure {
  readonly name = 'TeamStoreUnreachableError'
}

export const TEAM_STORE_REFUSALS = {
  TeamStoreSchemaTooNewError: {
    error: TeamStoreSchemaTooNewError,
    when: 'The PostgreSQL database of the team store holds a digline schema newer than this digline knows (a newer digline migrated it); nothing was read or written.',
    next: 'Upgrade digline in this project to the version that migrated the database (`npm install -D digline@latest`), then run again.',
  },
} as const satisfies RefusalFamily

export const TEAM_STORE_FAILURES = {
  TeamStoreUnreachableError: {
    error: TeamStoreUnreachableError,
    when: 'The PostgreSQL server of the team store could not be reached, or it refused the connection (server down, wrong host or port, authentication failed, no such database); the message never shows the password.',
    next: 'Start the server or fix the URL (or the PG* variables), check it with `pg_isready`, then run again.',
  },
} as const satisfies FailureFamily
