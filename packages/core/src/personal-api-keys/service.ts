import { Context, Effect, Layer, Struct } from "effect"
import { type Actor, personalApiKeyOf, type UserActor } from "../auth/actor.ts"
import { Access, CURRENT } from "../auth/access.ts"
import type { Body, BodyError } from "../shared/body.ts"
import { failIfAny, NotFound, orNotFound, PermissionDenied, ValidationError } from "../shared/errors.ts"
import { canonicalUuid, MAX_SERIAL, type OrganizationId, type PersonalApiKeyId, type ProjectId } from "../shared/ids.ts"
import { requireSystem } from "../shared/system.ts"
import { Transactions } from "../shared/transactions.ts"
import { decodeInput } from "../shared/validation.ts"
import { ProjectRepository } from "../projects/repository.ts"
import { userByEmail } from "../users/by-email.ts"
import { UserRepository } from "../users/repository.ts"
import { insertKeyWithinLimit, newKeySecret } from "./issue.ts"
import { PersonalApiKeyAdminCreate, PersonalApiKeyCreate, PersonalApiKeyUpdate } from "./input.ts"
import { type NewPersonalApiKey, type PersonalApiKey, type PersonalApiKeyView, toPersonalApiKeyView } from "./model.ts"
import { beyondReach, type Reach } from "./reach.ts"
import { PersonalApiKeyRepository } from "./repository.ts"

export { MAX_KEYS_PER_USER } from "./issue.ts"

/** PostHog reports the first failing field in its field order, each field's own check included, */
const HEAD = ["label", "scopes", "scoped_teams"] as const
const decodeCreateHead = decodeInput(PersonalApiKeyCreate.mapFields(Struct.pick(HEAD)))
const decodeUpdateHead = decodeInput(PersonalApiKeyUpdate.mapFields(Struct.pick(HEAD)))
/** …so the organizations are read only after the projects have been checked against the caller's memberships. */
const decodeOrganizations = decodeInput(PersonalApiKeyUpdate.mapFields(Struct.pick(["scoped_organizations"])))
const decodeAdminCreate = decodeInput(PersonalApiKeyAdminCreate)

const notMemberOfTeams = () =>
  ValidationError.field("scoped_teams", "You must be a member of all teams that you are scoping the key to.")
const notMemberOfOrganizations = () =>
  ValidationError.field("scoped_organizations", "You must be a member of all organizations that you are scoping the key to.")

/** The caller's own key is the most a key it makes or changes may grant (see docs/decisions.md). */
const reachOf = (actor: UserActor): Reach => actor.key
const beyondCallersReach = () =>
  new PermissionDenied({ detail: "Your API key cannot manage a key that grants more than it does." })

/** What the operator is shown: the key under the name `hedgerow admin` has always printed it by. */
export interface CreatedKey extends Omit<PersonalApiKeyView, "value"> {
  /** The only time the key itself is shown. */
  readonly personal_api_key: string
}

export class PersonalApiKeyService extends Context.Service<PersonalApiKeyService, {
  /** The operator's `hedgerow admin keys create`: a key for any user, named by e-mail. */
  readonly create: (actor: Actor, body: unknown) => Effect.Effect<CreatedKey, PermissionDenied | ValidationError>
  /** `GET /api/personal_api_keys/@current/`: the calling key. Any valid key may ask; a session caller has none (404). */
  readonly current: (actor: UserActor) => Effect.Effect<PersonalApiKeyView, NotFound>
  readonly list: (actor: UserActor) => Effect.Effect<ReadonlyArray<PersonalApiKeyView>, PermissionDenied>
  readonly retrieve: (actor: UserActor, id: string) => Effect.Effect<PersonalApiKeyView, PermissionDenied | NotFound>
  /** A key of the caller's own, within the reach of the calling key; `value` is set this once. */
  readonly createOwn: (actor: UserActor, body: Body) => Effect.Effect<PersonalApiKeyView, PermissionDenied | ValidationError | BodyError>
  readonly update: (
    actor: UserActor,
    id: string,
    body: Body
  ) => Effect.Effect<PersonalApiKeyView, PermissionDenied | NotFound | ValidationError | BodyError>
  /** The key's secret replaced: the old one stops working at once, the new one is `value`, this once. */
  readonly roll: (
    actor: UserActor,
    id: string,
    body: Body
  ) => Effect.Effect<PersonalApiKeyView, PermissionDenied | NotFound | ValidationError | BodyError>
  readonly destroy: (actor: UserActor, id: string) => Effect.Effect<void, PermissionDenied | NotFound>
}>()("hedgerow/PersonalApiKeyService") {
  static readonly layerNoDeps = Layer.effect(
    PersonalApiKeyService,
    Effect.gen(function*() {
      const keys = yield* PersonalApiKeyRepository
      const users = yield* UserRepository
      const projects = yield* ProjectRepository
      const transactions = yield* Transactions
      const access = yield* Access

      const insertWithinLimit = (record: NewPersonalApiKey) =>
        transactions.run(insertKeyWithinLimit(record).pipe(
          Effect.provideService(UserRepository, users),
          Effect.provideService(PersonalApiKeyRepository, keys)
        ))

      // Each project must exist, once, in an organization the caller belongs to.
      const checkTeams = (actor: UserActor, teams: ReadonlyArray<number> | undefined) =>
        Effect.gen(function*() {
          if (teams === undefined || teams.length === 0) return
          if (teams.some((id) => id < 1 || id > MAX_SERIAL)) return yield* notMemberOfTeams()
          const found = yield* projects.list(
            { organizations: [...actor.memberships.keys()], ids: teams as ReadonlyArray<ProjectId> },
            { limit: teams.length, offset: 0 }
          )
          if (found.results.length !== teams.length) return yield* notMemberOfTeams()
        })

      // Every id must be a UUID, then an organization of the caller's.
      const checkOrganizations = (actor: UserActor, given: ReadonlyArray<string> | undefined) =>
        Effect.gen(function*() {
          if (given === undefined) return undefined
          const ids = given.map(canonicalUuid)
          if (!ids.every((id) => id !== undefined)) {
            return yield* ValidationError.field("scoped_organizations", "Invalid organization UUID")
          }
          const organizations = ids as ReadonlyArray<string> as ReadonlyArray<OrganizationId>
          if (organizations.some((id) => !actor.memberships.has(id))) return yield* notMemberOfOrganizations()
          return organizations
        })

      /** The body's fields in PostHog's order, each with its own checks; absent ones stay undefined. */
      const readInput = <H extends { readonly scoped_teams?: ReadonlyArray<number> }>(
        actor: UserActor,
        raw: unknown,
        decodeHead: (input: unknown) => Effect.Effect<H, ValidationError>
      ) =>
        Effect.gen(function*() {
          const head = yield* decodeHead(raw)
          yield* checkTeams(actor, head.scoped_teams)
          const { scoped_organizations } = yield* decodeOrganizations(raw)
          return {
            ...head,
            scoped_teams: head.scoped_teams as ReadonlyArray<ProjectId> | undefined,
            scoped_organizations: yield* checkOrganizations(actor, scoped_organizations)
          }
        })

      /** The id a path names: `@current` is the calling key, as in PostHog; anything but a UUID names nothing. */
      const keyIdOf = (actor: UserActor, ref: string) => (ref === CURRENT ? personalApiKeyOf(actor)?.id : canonicalUuid(ref))

      /** A key of the caller's, or the 404 every unknown id and every other user's key answers. */
      const find = (actor: UserActor, ref: string, options?: { readonly forUpdate?: boolean }) => {
        const id = keyIdOf(actor, ref)
        return id === undefined
          ? Effect.fail(NotFound.default())
          : keys.findForUser(actor.user.id, id as PersonalApiKeyId, options).pipe(Effect.flatMap(orNotFound))
      }

      /** A key may only act on keys that grant no more than it does, so a narrow key cannot roll a wider one. */
      const requireWithinReach = (actor: UserActor, key: PersonalApiKey) =>
        beyondReach(reachOf(actor), key) === undefined
          ? Effect.void
          : Effect.fail(beyondCallersReach())

      /** The key's row locked, and checked again under the lock: another request may have widened it meanwhile. */
      const lockedWithinReach = (actor: UserActor, id: PersonalApiKeyId) =>
        find(actor, id, { forUpdate: true }).pipe(Effect.tap((key) => requireWithinReach(actor, key)))

      const create = Effect.fn("PersonalApiKeyService.create")(function*(actor: Actor, body: unknown) {
        yield* requireSystem(actor)
        const input = yield* decodeAdminCreate(body)
        const user = yield* userByEmail(input.email).pipe(Effect.provideService(UserRepository, users))
        const secret = newKeySecret()
        const key = yield* insertWithinLimit({
          user_id: user.id,
          label: input.label ?? "",
          secure_value: secret.secure_value,
          mask_value: secret.mask_value,
          scopes: input.scopes,
          scoped_organizations: (input.scoped_organizations ?? null) as ReadonlyArray<OrganizationId> | null,
          scoped_teams: (input.scoped_teams ?? null) as ReadonlyArray<ProjectId> | null
        })
        const { value: _, ...view } = toPersonalApiKeyView(key)
        return { ...view, personal_api_key: secret.plain }
      })

      const list = Effect.fn("PersonalApiKeyService.list")(function*(actor: UserActor) {
        yield* access.requireScope(actor, "user:read")
        return (yield* keys.listForUser(actor.user.id)).map((key) => toPersonalApiKeyView(key))
      })

      // As PostHog, a key may always read itself; reading the owner's other keys takes `user:read`.
      const retrieve = Effect.fn("PersonalApiKeyService.retrieve")(function*(actor: UserActor, id: string) {
        if (keyIdOf(actor, id) !== personalApiKeyOf(actor)?.id) yield* access.requireScope(actor, "user:read")
        return toPersonalApiKeyView(yield* find(actor, id))
      })

      const createOwn = Effect.fn("PersonalApiKeyService.createOwn")(function*(actor: UserActor, body: Body) {
        yield* access.requireScope(actor, "user:write")
        const input = yield* readInput(actor, yield* body, decodeCreateHead)
        const record = {
          user_id: actor.user.id,
          label: input.label,
          scopes: input.scopes,
          scoped_teams: input.scoped_teams ?? null,
          scoped_organizations: input.scoped_organizations ?? null
        }
        yield* failIfAny(beyondReach(reachOf(actor), record))
        const secret = newKeySecret()
        const key = yield* insertWithinLimit({ ...record, secure_value: secret.secure_value, mask_value: secret.mask_value })
        return toPersonalApiKeyView(key, secret.plain)
      })

      const update = Effect.fn("PersonalApiKeyService.update")(function*(actor: UserActor, id: string, body: Body) {
        yield* access.requireScope(actor, "user:write")
        const before = yield* find(actor, id)
        yield* requireWithinReach(actor, before)
        const input = yield* readInput(actor, yield* body, decodeUpdateHead)
        const key = yield* transactions.run(Effect.gen(function*() {
          const locked = yield* lockedWithinReach(actor, before.id)
          const changes = {
            label: input.label ?? locked.label,
            scopes: input.scopes ?? locked.scopes,
            scoped_teams: input.scoped_teams ?? locked.scoped_teams,
            scoped_organizations: input.scoped_organizations ?? locked.scoped_organizations
          }
          yield* failIfAny(beyondReach(reachOf(actor), changes))
          return yield* keys.update(locked.id, changes)
        }))
        return toPersonalApiKeyView(key)
      })

      const roll = Effect.fn("PersonalApiKeyService.roll")(function*(actor: UserActor, id: string, body: Body) {
        yield* access.requireScope(actor, "user:write")
        const before = yield* find(actor, id)
        yield* requireWithinReach(actor, before)
        // Read only to refuse a malformed one, like any write body; PostHog's roll takes no fields.
        yield* body
        const secret = newKeySecret()
        const key = yield* transactions.run(
          lockedWithinReach(actor, before.id).pipe(Effect.flatMap((locked) => keys.roll(locked.id, secret)))
        )
        return toPersonalApiKeyView(key, secret.plain)
      })

      const destroy = Effect.fn("PersonalApiKeyService.destroy")(function*(actor: UserActor, id: string) {
        yield* access.requireScope(actor, "user:write")
        const key = yield* find(actor, id)
        yield* requireWithinReach(actor, key)
        if (!(yield* transactions.run(keys.delete(actor.user.id, key.id)))) return yield* NotFound.default()
      })

      const current = (actor: UserActor) => {
        const key = personalApiKeyOf(actor)
        return key === undefined ? Effect.fail(NotFound.default()) : Effect.succeed(toPersonalApiKeyView(key))
      }

      return PersonalApiKeyService.of({
        create,
        current,
        list,
        retrieve,
        createOwn,
        update,
        roll,
        destroy
      })
    })
  )
}
