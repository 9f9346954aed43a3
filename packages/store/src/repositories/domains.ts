import { DomainRecord, DomainSettings } from "@hedgerow/core"
import { DomainRepository, DomainTaken } from "@hedgerow/core/ports"
import { Effect, Layer, Struct } from "effect"
import { SqlClient, SqlError } from "effect/sql"
import { pageAndTotal } from "./paging.ts"
import { isUniqueViolation, rowLock } from "./rows.ts"
import { columnsOf, decodeFirst, decodeOne, decodeRows, recordOf, valuesOf } from "./table.ts"

/** What a new domain's row is given: it starts unverified, and the database fills in its id and creation time. */
const NewDomain = DomainRecord.mapFields(Struct.omit(["id", "verified_at", "last_verification_retry", "created_at"]))
const decodeChanged = decodeOne(DomainRecord)
const decodeDomain = decodeFirst(DomainRecord)
const decodeDomains = decodeRows(DomainRecord)

export const layerNoDeps = Layer.effect(
  DomainRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(columnsOf(DomainRecord))
    const newColumns = sql.unsafe(columnsOf(NewDomain))
    const newRecord = recordOf(sql, "domains", NewDomain)
    const settingsColumns = sql.unsafe(columnsOf(DomainSettings))
    const settingsValues = valuesOf(sql, "domains", DomainSettings)

    return DomainRepository.of({
      // ON CONFLICT waits for a concurrent insert of the same name to settle, then yields nothing: never a 500.
      insert: ({ settings, ...given }) =>
        sql`
          INSERT INTO domains (id, ${newColumns})
          SELECT gen_random_uuid(), ${newColumns} FROM ${newRecord({ ...given, ...settings })}
          ON CONFLICT (domain) DO NOTHING RETURNING ${columns}`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeDomain),
          Effect.flatMap(Effect.fromOption),
          Effect.catchTag("NoSuchElementError", () => Effect.fail(new DomainTaken()))
        ),
      findVerified: (domain) =>
        // Folded by the database, as users' e-mails are when they are looked up, so one address finds both.
        sql`SELECT ${columns} FROM domains WHERE domain = lower(${domain}) AND verified_at IS NOT NULL`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeDomain)
        ),
      anySaml: sql<{ any: boolean }>`
        SELECT EXISTS (
          SELECT 1 FROM domains WHERE verified_at IS NOT NULL
            AND saml_entity_id <> '' AND saml_acs_url <> '' AND saml_x509_cert <> ''
        ) AS any`.pipe(Effect.orDie, Effect.map((rows) => rows[0]?.any === true)),
      isTaken: (domain) =>
        sql<{ taken: boolean }>`SELECT EXISTS (SELECT 1 FROM domains WHERE domain = ${domain}) AS taken`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows[0]?.taken === true)
        ),
      find: (organization, id, options) =>
        sql`SELECT ${columns} FROM domains WHERE id = ${id} AND organization_id = ${organization} ${rowLock(sql, options)}`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeDomain)
        ),
      // Names are unique, so ordering by name alone is stable; domains_list_idx serves it.
      list: (organization, page) =>
        pageAndTotal(
          page,
          sql`
            SELECT ${columns} FROM domains WHERE organization_id = ${organization}
            ORDER BY domain LIMIT ${page.limit} OFFSET ${page.offset}`,
          sql<{ n: number }>`SELECT count(*)::integer AS n FROM domains WHERE organization_id = ${organization}`
        ).pipe(
          Effect.flatMap(({ rows, total }) =>
            Effect.map(decodeDomains(rows), (results) => ({ count: total, results, request: page })))
        ),
      update: (id, settings) =>
        sql`
          UPDATE domains SET (${settingsColumns}) = (${settingsValues(settings)})
          WHERE id = ${id} RETURNING ${columns}`.pipe(Effect.orDie, Effect.flatMap(decodeChanged)),
      rename: (id, domain, verification_challenge) =>
        sql`
          UPDATE domains SET domain = ${domain}, verification_challenge = ${verification_challenge}, verified_at = NULL,
            last_verification_retry = NULL, jit_provisioning_enabled = false, sso_enforcement = ''
          WHERE id = ${id} RETURNING ${columns}`.pipe(
          Effect.catchIf(isUniqueViolation, () => Effect.fail(new DomainTaken())),
          Effect.catchIf(SqlError.isSqlError, Effect.die),
          Effect.flatMap(decodeChanged)
        ),
      delete: (organization, id) =>
        sql<{ id: string }>`DELETE FROM domains WHERE id = ${id} AND organization_id = ${organization} RETURNING id`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows.length > 0)
        ),
      recordVerification: (id, challenge, verified) =>
        (verified
          ? sql`UPDATE domains SET verified_at = now(), last_verification_retry = NULL
                WHERE id = ${id} AND verified_at IS NULL AND verification_challenge = ${challenge}`
          : sql`UPDATE domains SET last_verification_retry = now()
                WHERE id = ${id} AND verified_at IS NULL AND verification_challenge = ${challenge}`).pipe(
          Effect.orDie,
          Effect.asVoid
        )
    })
  })
)
