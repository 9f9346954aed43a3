import { type DomainId, type DomainRecord, DomainRepository, DomainTaken, type OrganizationId } from "@hedgerow/core"
import { Effect, Layer, Option } from "effect"
import { SqlClient, SqlError } from "effect/sql"
import { ts, tsOrNull } from "./rows.ts"
import { pageAndTotal } from "./paging.ts"

interface DomainRow {
  readonly id: string
  readonly organization_id: string
  readonly domain: string
  readonly verification_challenge: string
  readonly verified_at: Date | string | null
  readonly last_verification_retry: Date | string | null
  readonly jit_provisioning_enabled: boolean
  readonly sso_enforcement: string
  readonly saml_entity_id: string | null
  readonly saml_acs_url: string | null
  readonly saml_x509_cert: string | null
  readonly created_at: Date | string
}

const toDomainRecord = (row: DomainRow): DomainRecord => ({
  id: row.id as DomainId,
  organization_id: row.organization_id as OrganizationId,
  domain: row.domain,
  verification_challenge: row.verification_challenge,
  verified_at: tsOrNull(row.verified_at),
  last_verification_retry: tsOrNull(row.last_verification_retry),
  jit_provisioning_enabled: row.jit_provisioning_enabled,
  sso_enforcement: row.sso_enforcement,
  saml_entity_id: row.saml_entity_id,
  saml_acs_url: row.saml_acs_url,
  saml_x509_cert: row.saml_x509_cert,
  created_at: ts(row.created_at)
})

export const DomainRepositoryLive = Layer.effect(
  DomainRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    return DomainRepository.of({
      // ON CONFLICT waits for a concurrent insert of the same name to settle, then yields nothing: never a 500.
      insert: ({ organization_id, domain, verification_challenge, settings }) =>
        sql<DomainRow>`
          INSERT INTO domains (id, organization_id, domain, verification_challenge, jit_provisioning_enabled,
            sso_enforcement, saml_entity_id, saml_acs_url, saml_x509_cert)
          VALUES (gen_random_uuid(), ${organization_id}, ${domain}, ${verification_challenge},
            ${settings.jit_provisioning_enabled}, ${settings.sso_enforcement}, ${settings.saml_entity_id},
            ${settings.saml_acs_url}, ${settings.saml_x509_cert})
          ON CONFLICT (domain) DO NOTHING RETURNING *`.pipe(
          Effect.orDie,
          Effect.flatMap((rows) => (rows.length === 0 ? Effect.fail(new DomainTaken()) : Effect.succeed(toDomainRecord(rows[0]!))))
        ),
      isTaken: (domain) =>
        sql<{ taken: boolean }>`SELECT EXISTS (SELECT 1 FROM domains WHERE domain = ${domain}) AS taken`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows[0]?.taken === true)
        ),
      find: (organization, id, options) =>
        (options?.forUpdate === true
          ? sql<DomainRow>`SELECT * FROM domains WHERE id = ${id} AND organization_id = ${organization} FOR UPDATE`
          : sql<DomainRow>`SELECT * FROM domains WHERE id = ${id} AND organization_id = ${organization}`).pipe(
          Effect.orDie,
          Effect.map((rows) => Option.fromNullishOr(rows[0]).pipe(Option.map(toDomainRecord)))
        ),
      // Names are unique, so ordering by name alone is stable; domains_list_idx serves it.
      list: (organization, page) =>
        pageAndTotal(
          page,
          sql<DomainRow>`
            SELECT * FROM domains WHERE organization_id = ${organization}
            ORDER BY domain LIMIT ${page.limit} OFFSET ${page.offset}`,
          sql<{ n: number }>`SELECT count(*)::integer AS n FROM domains WHERE organization_id = ${organization}`
        ).pipe(Effect.map(({ rows, total }) => ({ count: total, results: rows.map(toDomainRecord), request: page }))),
      update: (id, settings) =>
        sql<DomainRow>`
          UPDATE domains SET jit_provisioning_enabled = ${settings.jit_provisioning_enabled},
            sso_enforcement = ${settings.sso_enforcement}, saml_entity_id = ${settings.saml_entity_id},
            saml_acs_url = ${settings.saml_acs_url}, saml_x509_cert = ${settings.saml_x509_cert}
          WHERE id = ${id} RETURNING *`.pipe(Effect.orDie, Effect.map((rows) => toDomainRecord(rows[0]!))),
      rename: (id, domain, verification_challenge) =>
        sql<DomainRow>`
          UPDATE domains SET domain = ${domain}, verification_challenge = ${verification_challenge}, verified_at = NULL,
            last_verification_retry = NULL, jit_provisioning_enabled = false, sso_enforcement = ''
          WHERE id = ${id} RETURNING *`.pipe(
          Effect.catchIf(
            (error) => SqlError.isSqlError(error) && error.reason._tag === "UniqueViolation",
            () => Effect.fail(new DomainTaken())
          ),
          Effect.catchIf(SqlError.isSqlError, Effect.die),
          Effect.map((rows) => toDomainRecord(rows[0]!))
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
