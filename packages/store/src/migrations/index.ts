import { Data, Effect, Layer, Record } from "effect"
import { createHash } from "node:crypto"
import { Migrator, SqlClient } from "effect/sql"
import initial from "./0001_initial.ts"
import featureFlags from "./0002_feature_flags.ts"
import changeFeed from "./0003_change_feed.ts"
import flagsInMemory from "./0004_flags_in_memory.ts"
import flagUsage from "./0005_flag_usage.ts"
import personalApiKeyRolls from "./0006_personal_api_key_rolls.ts"
import sessions from "./0007_sessions.ts"
import groupTypes from "./0008_group_types.ts"
import cohorts from "./0009_cohorts.ts"
import flagCalls from "./0010_flag_calls.ts"
import cohortMembersFeed from "./0011_cohort_members_feed.ts"
import webhooks from "./0012_webhooks.ts"
import twoFactor from "./0013_two_factor.ts"
import saml from "./0014_saml.ts"
import oauth from "./0015_oauth.ts"
import cliAuth from "./0016_cli_auth.ts"
import enforce2fa from "./0017_enforce_2fa.ts"
import samlBrowser from "./0018_saml_browser.ts"
import signInLinks from "./0019_sign_in_links.ts"
import { sqlErrorReason } from "../sql/postgres-client.ts"
import { runScript } from "./script.ts"

/** Forward-only, versioned migrations, each a script, recorded in `hedgerow_migrations` and applied at start. */
export const migrations = {
  "0001_initial": initial, "0002_feature_flags": featureFlags, "0003_change_feed": changeFeed,
  "0004_flags_in_memory": flagsInMemory, "0005_flag_usage": flagUsage,
  "0006_personal_api_key_rolls": personalApiKeyRolls, "0007_sessions": sessions,
  "0008_group_types": groupTypes,
  "0009_cohorts": cohorts,
  "0010_flag_calls": flagCalls,
  "0011_cohort_members_feed": cohortMembersFeed,
  "0012_webhooks": webhooks,
  "0013_two_factor": twoFactor,
  "0014_saml": saml,
  "0015_oauth": oauth,
  "0016_cli_auth": cliAuth,
  "0017_enforce_2fa": enforce2fa,
  "0018_saml_browser": samlBrowser,
  "0019_sign_in_links": signInLinks
}

const migrate = Migrator.make({})({ loader: Migrator.fromRecord(Record.map(migrations, runScript)), table: "hedgerow_migrations" })

/** Names this code's migrations, their scripts included: a database they made is told from another's by it. */
export const migrationsFingerprint = (): string =>
  createHash("sha256").update(JSON.stringify(Object.entries(migrations))).digest("hex").slice(0, 16)

/**
 * Applies what is missing, in one transaction under an advisory lock: when several servers start at
 * once on one PostgreSQL database, the first migrates while the others wait, then find nothing to do.
 * (The migrator's own table lock cannot cover the creation of that table, nor the first migration.)
 */
export const migrateDatabase = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.withTransaction(Effect.gen(function*() {
    yield* sql`SELECT pg_advisory_xact_lock(hashtext('hedgerow:migrations'))`
    // The migrator's own table, as it would make it: its way (try, and on failure look again) is for
    // callers outside a transaction, and inside this one would hide the first error (a missing
    // privilege, say) behind "current transaction is aborted".
    yield* sql`CREATE TABLE IF NOT EXISTS hedgerow_migrations (
      migration_id integer PRIMARY KEY, created_at timestamptz NOT NULL DEFAULT now(), name text NOT NULL)`
    yield* migrate
  }))
}).pipe(
  Effect.mapError((error) =>
    new MigrationFailed({
      reason: error._tag === "MigrationError"
        ? `${error.message}${error.cause === undefined ? "" : `: ${sqlErrorReason(error.cause)}`}`
        : sqlErrorReason(error)
    })
  ),
  Effect.withSpan("hedgerow.migrate")
)

/** The database brought up to date before anything uses it. */
export const layerNoDeps = Layer.effectDiscard(migrateDatabase)

/** The database refused a migration (often a privilege): PostgreSQL's own words, for the operator. */
export class MigrationFailed extends Data.TaggedError("MigrationFailed")<{ readonly reason: string }> {
  override get message() {
    return `cannot migrate the database: ${this.reason}`
  }
}
