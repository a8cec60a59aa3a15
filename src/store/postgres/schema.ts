// The team store's schema, owned by digline and versioned: digline_schema_migrations holds one row
// per migration applied. Migrating runs under a transaction-scoped advisory lock, so processes that
// start at once apply each migration exactly once; a database a newer digline migrated is refused.
// docs/team-store.md describes the tables; docs/adr/0040 the shape, 0042 the removal guard.
import { TeamStoreSchemaTooNewError } from './errors.js'
import type { PgClient, PgQueryable } from './pg-types.js'

/** The SQLSTATE the database raises when a write names a removed key. */
export const REMOVED_SQLSTATE = 'DL001'

/** The SQLSTATE the database raises when something tries to change or remove a review record. */
export const APPEND_ONLY_SQLSTATE = 'DL002'

/** The advisory lock every migration holds (an arbitrary constant: "digline" in ASCII). */
const MIGRATION_LOCK = 0x646967_6c696e65n

/** Collation "C": keys sort by their bytes, as the file store sorts its file names. */
const NAME = 'text COLLATE "C" NOT NULL'

/** Migration N is MIGRATIONS[N - 1]; a migration is never edited once released, only added to. */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE digline_runs (
    tenant ${NAME}, suite ${NAME}, key ${NAME},
    created_at text NOT NULL,
    rejudged_from text COLLATE "C",
    rejudged_from_suite text COLLATE "C",
    header text NOT NULL,
    aggregates text NOT NULL,
    document text NOT NULL,
    PRIMARY KEY (tenant, suite, key)
  );
  CREATE INDEX digline_runs_replays ON digline_runs (tenant, rejudged_from) WHERE rejudged_from IS NOT NULL;

  CREATE TABLE digline_journal_legs (
    tenant ${NAME}, suite ${NAME}, key ${NAME},
    leg integer NOT NULL CHECK (leg > 0),
    header_line text NOT NULL,
    declared_line text NOT NULL,
    lease_expires_at timestamptz NOT NULL,
    PRIMARY KEY (tenant, suite, key, leg)
  );

  CREATE TABLE digline_journal_records (
    tenant ${NAME}, suite ${NAME}, key ${NAME},
    leg integer NOT NULL,
    seq integer NOT NULL CHECK (seq > 0),
    line text NOT NULL,
    PRIMARY KEY (tenant, suite, key, leg, seq),
    FOREIGN KEY (tenant, suite, key, leg) REFERENCES digline_journal_legs ON DELETE CASCADE
  );

  CREATE TABLE digline_baselines (
    tenant ${NAME}, suite ${NAME},
    promoted_from ${NAME},
    document text NOT NULL,
    PRIMARY KEY (tenant, suite)
  );

  CREATE TABLE digline_register (
    tenant ${NAME},
    seq bigint GENERATED ALWAYS AS IDENTITY,
    suite ${NAME}, key ${NAME},
    entry text NOT NULL,
    PRIMARY KEY (tenant, seq)
  );

  CREATE TABLE digline_removals (
    tenant ${NAME}, suite ${NAME}, key ${NAME},
    removed_at text NOT NULL,
    record text NOT NULL,
    PRIMARY KEY (tenant, suite, key)
  );

  CREATE TABLE digline_retired_suites (
    tenant ${NAME}, suite ${NAME},
    retired_at text NOT NULL,
    PRIMARY KEY (tenant, suite)
  );

  -- Every writer of a key takes the key's lock, then looks for its removal record: a delete holds the
  -- same lock from before it records the removal until it commits, so no write slips between them.
  CREATE FUNCTION digline_refuse_removed(t text, s text, k text) RETURNS void LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended(t || '/' || s || '/' || k, 0));
    IF EXISTS (SELECT 1 FROM digline_removals WHERE tenant = t AND suite = s AND key = k) THEN
      RAISE EXCEPTION 'run % of suite % (tenant %) was removed, and a removed key is never written again', k, s, t
        USING ERRCODE = '${REMOVED_SQLSTATE}', DETAIL = s || '/' || k;
    END IF;
  END $$;

  -- A replay's parent is locked before the replay itself, as a delete locks a run before its replays.
  CREATE FUNCTION digline_guard_run() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF NEW.rejudged_from IS NOT NULL THEN
      PERFORM digline_refuse_removed(NEW.tenant, COALESCE(NEW.rejudged_from_suite, NEW.suite), NEW.rejudged_from);
    END IF;
    PERFORM digline_refuse_removed(NEW.tenant, NEW.suite, NEW.key);
    RETURN NEW;
  END $$;

  CREATE FUNCTION digline_guard_key() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM digline_refuse_removed(NEW.tenant, NEW.suite, NEW.key);
    RETURN NEW;
  END $$;

  CREATE FUNCTION digline_guard_baseline() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM digline_refuse_removed(NEW.tenant, NEW.suite, NEW.promoted_from);
    RETURN NEW;
  END $$;

  CREATE TRIGGER digline_runs_guard BEFORE INSERT OR UPDATE ON digline_runs FOR EACH ROW EXECUTE FUNCTION digline_guard_run();
  -- A record needs its leg (the foreign key): a delete removes the legs under the key's lock, and a
  -- removed key's leg cannot come back, so a record of a removed run fails without a trigger of its own.
  CREATE TRIGGER digline_legs_guard BEFORE INSERT ON digline_journal_legs FOR EACH ROW EXECUTE FUNCTION digline_guard_key();
  CREATE TRIGGER digline_baselines_guard BEFORE INSERT OR UPDATE ON digline_baselines FOR EACH ROW EXECUTE FUNCTION digline_guard_baseline();
  `,
  `
  CREATE TABLE digline_cache (
    tenant ${NAME}, suite ${NAME}, case_id ${NAME},
    key ${NAME},
    cached_at text NOT NULL,
    entry text NOT NULL,
    PRIMARY KEY (tenant, suite, case_id, key)
  );
  `,
  // Each entry names the run that asked for it, so the run's delete removes it (SPEC §7). Entries
  // kept before that name no run and could never be removed with one: the cache is disposable, so
  // they go (their keys, made without the code the target runs, would never be hit again anyway).
  `
  DELETE FROM digline_cache;
  ALTER TABLE digline_cache ADD COLUMN run ${NAME};
  CREATE INDEX digline_cache_by_run ON digline_cache (tenant, suite, run);
  `,
  // Review records (docs/adr/0341): append-only. A label needs its filed run (the foreign key) and
  // goes only with it: the run's delete cascades to its labels, and any other UPDATE or DELETE is
  // refused by the database itself (a cascade runs one trigger level down).
  `
  CREATE TABLE digline_reviews (
    tenant ${NAME}, suite ${NAME}, key ${NAME},
    review_id ${NAME},
    case_id ${NAME},
    created_at text NOT NULL,
    record text NOT NULL,
    PRIMARY KEY (tenant, suite, key, review_id),
    FOREIGN KEY (tenant, suite, key) REFERENCES digline_runs (tenant, suite, key) ON DELETE CASCADE
  );
  CREATE INDEX digline_reviews_by_suite ON digline_reviews (tenant, suite, created_at, review_id);
  CREATE TRIGGER digline_reviews_guard BEFORE INSERT ON digline_reviews FOR EACH ROW EXECUTE FUNCTION digline_guard_key();

  CREATE FUNCTION digline_reviews_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'DELETE' AND pg_trigger_depth() > 1 THEN
      RETURN OLD;
    END IF;
    RAISE EXCEPTION 'review records are append-only: a label goes only with its run, through digline delete'
      USING ERRCODE = '${APPEND_ONLY_SQLSTATE}';
  END $$;
  CREATE TRIGGER digline_reviews_append_only BEFORE UPDATE OR DELETE ON digline_reviews FOR EACH ROW EXECUTE FUNCTION digline_reviews_append_only();
  `,
  // Tool replay's recordings (SPEC §16, docs/adr/0320): one row per recorded tool call, removed with the run that recorded it.
  `
  CREATE TABLE digline_tool_recordings (
    tenant ${NAME}, suite ${NAME}, case_id ${NAME},
    key ${NAME},
    run ${NAME},
    recorded_at text NOT NULL,
    recording text NOT NULL,
    PRIMARY KEY (tenant, suite, case_id, key)
  );
  CREATE INDEX digline_tool_recordings_by_run ON digline_tool_recordings (tenant, suite, run);
  `,
]

export const SCHEMA_VERSION_LATEST = MIGRATIONS.length

async function appliedVersion(db: PgQueryable): Promise<number | undefined> {
  try {
    const { rows } = await db.query('SELECT coalesce(max(version), 0) AS version FROM digline_schema_migrations')
    return Number(rows[0]?.version ?? 0)
  } catch (error) {
    if ((error as { code?: unknown }).code === '42P01') return undefined
    throw error
  }
}

function tooNew(version: number, where: string): TeamStoreSchemaTooNewError {
  return new TeamStoreSchemaTooNewError(
    `refused the team store ${where}: its digline schema is at version ${version}, and this digline knows versions up to ${SCHEMA_VERSION_LATEST} (a newer digline migrated it); nothing was read or written`,
    'upgrade digline in this project (`npm install -D digline@latest`) to the version that migrated the database, then run again',
    ['store'],
  )
}

/** Brings the database to the latest schema, or refuses a newer one. Idempotent; safe when run by many processes at once. */
export async function migrate(pool: PgQueryable & { connect(): Promise<PgClient> }, where: string): Promise<void> {
  const seen = await appliedVersion(pool)
  if (seen === SCHEMA_VERSION_LATEST) return
  if (seen !== undefined && seen > SCHEMA_VERSION_LATEST) throw tooNew(seen, where)
  const client = await pool.connect()
  let broken: Error | undefined
  const lost = (error: Error): void => {
    broken = error
  }
  client.on('error', lost)
  try {
    await client.query('BEGIN')
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK.toString()])
    await client.query('CREATE TABLE IF NOT EXISTS digline_schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())')
    const version = (await appliedVersion(client)) ?? 0
    if (version > SCHEMA_VERSION_LATEST) throw tooNew(version, where)
    for (let next = version + 1; next <= SCHEMA_VERSION_LATEST; next++) {
      await client.query(MIGRATIONS[next - 1]!)
      await client.query('INSERT INTO digline_schema_migrations (version) VALUES ($1)', [next])
    }
    await client.query('COMMIT')
  } catch (error) {
    await client.query('ROLLBACK').catch((rollback: unknown) => (broken = rollback instanceof Error ? rollback : new Error(String(rollback))))
    throw error
  } finally {
    if (broken === undefined) client.off('error', lost)
    client.release(broken ?? false)
  }
}
