import { AlreadyMember, type Membership, type MembershipId, type MembershipLevel, MembershipRepository, type OrganizationId, type UserId } from "@hedgerow/core"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { ts } from "./rows.ts"

interface MembershipRow {
  readonly id: string
  readonly organization_id: string
  readonly user_id: number
  readonly level: number
  readonly joined_at: Date | string
  readonly updated_at: Date | string
}

export const toMembership = (row: MembershipRow): Membership => ({
  id: row.id as MembershipId,
  organization_id: row.organization_id as OrganizationId,
  user_id: row.user_id as UserId,
  level: row.level as MembershipLevel,
  joined_at: ts(row.joined_at),
  updated_at: ts(row.updated_at)
})

export const MembershipRepositoryLive = Layer.effect(
  MembershipRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return MembershipRepository.of({
      insert: (input) =>
        sql<MembershipRow>`
          INSERT INTO memberships (id, organization_id, user_id, level)
          VALUES (gen_random_uuid(), ${input.organization_id}, ${input.user_id}, ${input.level})
          ON CONFLICT ON CONSTRAINT memberships_organization_user_key DO NOTHING RETURNING *`.pipe(
          Effect.orDie,
          Effect.flatMap((rows) => rows.length === 0 ? Effect.fail(new AlreadyMember()) : Effect.succeed(toMembership(rows[0]!)))
        ),
      find: (organization, user) =>
        sql<MembershipRow>`SELECT * FROM memberships WHERE organization_id = ${organization} AND user_id = ${user}`.pipe(
          Effect.orDie,
          Effect.map((rows) => Option.fromNullishOr(rows[0]).pipe(Option.map(toMembership)))
        )
    })
  })
)
