import { DomainRecord } from "@hedgerow/core"
import { SamlRepository } from "@hedgerow/core/ports"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { columnsOf, decodeFirst } from "./table.ts"

const decodeDomain = decodeFirst(DomainRecord)

/** Epoch milliseconds as the text PostgreSQL reads into a timestamptz. */
const instant = (millis: number) => new Date(millis).toISOString()

export const layerNoDeps = Layer.effect(
  SamlRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(columnsOf(DomainRecord))
    return SamlRepository.of({
      verifiedDomain: (id) =>
        sql`SELECT ${columns} FROM domains WHERE id = ${id} AND verified_at IS NOT NULL`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeDomain)
        ),
      // Anyone may start a log-in, so each start also drops the expired requests: the table holds ten minutes of starts at most.
      issueRequest: ({ browser_hash, domain_id, expires_at, id }) =>
        sql`
          WITH expired AS (DELETE FROM saml_requests WHERE expires_at <= now())
          INSERT INTO saml_requests (id, domain_id, expires_at, browser_hash)
          VALUES (${id}, ${domain_id}, ${instant(expires_at)}::timestamptz, ${browser_hash})`.pipe(
          Effect.orDie,
          Effect.asVoid
        ),
      // One statement takes the request and drops the expired ones: of two answers to one request, one wins.
      consumeRequest: (id, domain) =>
        sql<{ browser_hash: string }>`
          WITH gone AS (
            DELETE FROM saml_requests WHERE (id = ${id} AND domain_id = ${domain}) OR expires_at <= now()
            RETURNING expires_at, browser_hash, id = ${id} AS asked
          )
          SELECT browser_hash FROM gone WHERE asked AND expires_at > now()`.pipe(
          Effect.orDie,
          Effect.map((rows) => Option.fromNullishOr(rows[0]?.browser_hash))
        ),
      // A concurrent insert of the same id waits for the other to settle, then yields nothing: the second is the replay.
      rememberAssertion: (domain, id, until) =>
        Effect.gen(function*() {
          yield* sql`DELETE FROM saml_assertions WHERE expires_at <= now()`
          const rows = yield* sql`
            INSERT INTO saml_assertions (domain_id, id, expires_at) VALUES (${domain}, ${id}, ${instant(until)}::timestamptz)
            ON CONFLICT (domain_id, id) DO NOTHING RETURNING id`
          return rows.length === 1
        }).pipe(Effect.orDie)
    })
  })
)
