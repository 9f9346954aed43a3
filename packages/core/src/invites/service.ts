import { Clock, Context, Effect, Layer, Option, Schema } from "effect"
import type { Actor } from "../auth/actor.ts"
import { Access, type OrganizationAccess } from "../auth/access.ts"
import { MailDelivery } from "../mail/delivery.ts"
import type { OutboxEntry } from "../mail/outbox.ts"
import { OutboxRepository } from "../mail/outbox.ts"
import { MembershipRepository } from "../members/repository.ts"
import { membersTurn } from "../members/turn.ts"
import { Level, type MembershipLevel } from "../organizations/model.ts"
import { OrganizationRepository } from "../organizations/repository.ts"
import type { Project } from "../projects/model.ts"
import { ProjectRepository } from "../projects/repository.ts"
import type { Body, BodyError } from "../shared/body.ts"
import { NotFound, orNotFound, PermissionDenied, ValidationError } from "../shared/errors.ts"
import { canonicalUuid, type InviteId, MAX_SERIAL, type ProjectId } from "../shared/ids.ts"
import { type ListQuery, type Page, pageRequest } from "../shared/page.ts"
import { isRecord } from "../shared/fields.ts"
import { SiteSettings } from "../shared/site.ts"
import { Transactions } from "../shared/transactions.ts"
import { decodeInput } from "../shared/validation.ts"
import { inviteEmail } from "./email.ts"
import { InviteFields, InviteLevel, InviteOptions, MAX_BULK_INVITES } from "./input.ts"
import type { Invite, InviteRecord, PrivateProjectAccess } from "./model.ts"
import { InviteRepository } from "./repository.ts"
import { isExpired, toInvite } from "./views.ts"
import { toUserSummary } from "../users/model.ts"

const FieldsInput = Schema.Struct(InviteFields)
const OptionsInput = Schema.Struct(InviteOptions)
const decodeFields = decodeInput(FieldsInput)
const decodeOptions = decodeInput(OptionsInput)
const levelOf = Schema.decodeUnknownOption(InviteLevel)

interface ValidInvite {
  readonly fields: typeof FieldsInput.Type
  readonly options: typeof OptionsInput.Type
}

/** Where an error points: the body itself (single create), or one item of a bulk body. */
type Locate = (index: number) => (error: ValidationError) => ValidationError
const asIs: Locate = () => (error) => error

const PROJECT_UNAVAILABLE = "Project does not exist on this organization, or it is private and you do not have access to it."

/** The project ids an invite body names, where they could be ids at all (for one lookup before validation). */
const namedProjects = (item: unknown): ReadonlyArray<ProjectId> => {
  const access = isRecord(item) ? item["private_project_access"] : undefined
  if (!Array.isArray(access)) return []
  return access.flatMap((entry) => {
    const id = isRecord(entry) ? entry["id"] : undefined
    return typeof id === "number" && Number.isInteger(id) && id > 0 && id <= MAX_SERIAL ? [id as ProjectId] : []
  })
}

const ACCESS_RANK = { member: 0, admin: 1 } as const

/** Project grants combined as PostHog combines them: the new entries first, then other projects of pending invites, each at its highest level. */
const mergeAccess = (
  given: ReadonlyArray<PrivateProjectAccess>,
  pending: ReadonlyArray<InviteRecord>
): ReadonlyArray<PrivateProjectAccess> => {
  const merged = new Map<ProjectId, PrivateProjectAccess["level"]>()
  for (const { id, level } of [...given, ...pending.flatMap((invite) => invite.private_project_access)]) {
    const held = merged.get(id)
    if (held === undefined || ACCESS_RANK[level] > ACCESS_RANK[held]) merged.set(id, level)
  }
  return [...merged].map(([id, level]) => ({ id, level }))
}

/** A bulk item's error names its index: `2__target_email`, or `2` for the item as a whole. */
const atIndex: Locate = (index) => (error) =>
  new ValidationError({ code: error.code, detail: error.detail, attr: error.attr === null ? String(index) : `${index}__${error.attr}` })

export class InviteService extends Context.Service<InviteService, {
  readonly list: (actor: Actor, organization: string, query: ListQuery) => Effect.Effect<Page<Invite>, PermissionDenied | NotFound>
  readonly create: (
    actor: Actor,
    organization: string,
    body: Body
  ) => Effect.Effect<Invite, PermissionDenied | NotFound | ValidationError | BodyError>
  readonly destroy: (actor: Actor, organization: string, id: string) => Effect.Effect<void, PermissionDenied | NotFound>
  /** 1 to 20 invites, validated whole and written all together or not at all. */
  readonly bulk: (actor: Actor, organization: string, body: Body) => Effect.Effect<void, PermissionDenied | NotFound | ValidationError | BodyError>
}>()("hedgerow/InviteService") {
  static readonly layerNoDeps = Layer.effect(
    InviteService,
    Effect.gen(function*() {
      const access = yield* Access
      const invites = yield* InviteRepository
      const memberships = yield* MembershipRepository
      const projects = yield* ProjectRepository
      const organizations = yield* OrganizationRepository
      const outbox = yield* OutboxRepository
      const delivery = yield* MailDelivery
      const transactions = yield* Transactions
      const site = yield* SiteSettings

      const list = Effect.fn("InviteService.list")(function*(actor: Actor, organization: string, query: ListQuery) {
        const { organization_id } = yield* access.organization(actor, organization, "organization_member:read")
        const page = yield* invites.list(organization_id, pageRequest(query))
        const now = yield* Clock.currentTimeMillis
        return { ...page, results: page.results.map(({ invite, created_by }) => toInvite(invite, created_by, now)) }
      })

      /**
       * PostHog checks every item's fields in order and collects the 400s, but a level above the caller's
       * is a 403 that stops at once. So a too-high level anywhere wins over every 400; otherwise the first
       * 400 is reported.
       */
      const validate = Effect.fn("InviteService.validate")(function*(
        items: ReadonlyArray<unknown>,
        orgAccess: OrganizationAccess,
        locate: Locate
      ) {
        for (const item of items) {
          const level = isRecord(item) && "level" in item ? levelOf(item["level"]) : Option.none()
          if (Option.isSome(level) && level.value > orgAccess.level) {
            return yield* new PermissionDenied({ detail: "You cannot invite a user with a higher permission level than your own." })
          }
        }
        const ids = [...new Set(items.flatMap(namedProjects))]
        const found = ids.length === 0
          ? []
          : (yield* projects.list({ organizations: [orgAccess.organization_id], ids }, { limit: ids.length, offset: 0 })).results
        const known = new Map<number, Project>(found.map((project) => [project.id, project]))
        const valid: Array<ValidInvite> = []
        for (const [index, item] of items.entries()) {
          const checked = yield* Effect.gen(function*() {
            const fields = yield* decodeFields(item)
            for (const entry of fields.private_project_access ?? []) {
              const project = known.get(entry.id)
              // Without project-level grants here, a private project is open to organization admins only.
              if (project === undefined || (project.settings.access_control && orgAccess.level < Level.admin)) {
                return yield* ValidationError.field("private_project_access", PROJECT_UNAVAILABLE)
              }
            }
            const options = yield* decodeOptions(item)
            return { fields, options }
          }).pipe(Effect.mapError(locate(index)))
          valid.push(checked)
        }
        return valid
      })

      /** Replaces earlier invites for each address and records their e-mails, in one transaction; sends after it. */
      const write = Effect.fn("InviteService.write")(function*(
        actor: Actor,
        orgAccess: OrganizationAccess,
        valid: ReadonlyArray<ValidInvite>,
        locate: Locate
      ) {
        const { organization_id } = orgAccess
        const inviter = actor._tag === "User" ? actor.user : null
        const createdBy = inviter === null ? null : toUserSummary(inviter)
        const mailing = valid.some(({ options }) => options.send_email ?? true)
        const organizationName = mailing
          ? (yield* organizations.findById(organization_id).pipe(Effect.flatMap(orNotFound))).name
          : ""
        const now = yield* Clock.currentTimeMillis
        const { created, entries } = yield* transactions.run(Effect.gen(function*() {
          // Replacing an address's invites is read, delete, insert, and no row lock covers an invite not yet
          // written: invite writers in one organization take turns (with member additions, whose check is
          // the next one), so the later sees and replaces the earlier.
          yield* transactions.serialize(membersTurn(organization_id))
          const taken = yield* memberships.memberEmails(organization_id, valid.map(({ fields }) => fields.target_email))
          const clash = valid.findIndex(({ fields }) => taken.has(fields.target_email))
          if (clash >= 0) {
            return yield* locate(clash)(ValidationError.field(null, "A user with this email address already belongs to the organization."))
          }
          const created: Array<InviteRecord> = []
          const entries: Array<OutboxEntry> = []
          for (const { fields, options } of valid) {
            const email = fields.target_email
            const sendEmail = options.send_email ?? true
            let level: MembershipLevel = fields.level ?? Level.member
            let projectAccess: ReadonlyArray<PrivateProjectAccess> = (fields.private_project_access ?? []) as ReadonlyArray<PrivateProjectAccess>
            if (options.combine_pending_invites === true) {
              const pending = (yield* invites.forEmail(organization_id, email)).filter((invite) => !isExpired(invite, now))
              level = Math.max(level, ...pending.map((invite) => invite.level)) as MembershipLevel
              projectAccess = mergeAccess(projectAccess, pending)
            }
            yield* invites.removeForEmail(organization_id, email)
            const invite = yield* invites.insert({
              organization_id,
              target_email: email,
              first_name: fields.first_name ?? "",
              level,
              message: fields.message ?? null,
              private_project_access: projectAccess,
              emailing_attempt_made: sendEmail && delivery.configured,
              created_by_id: inviter?.id ?? null
            })
            created.push(invite)
            if (sendEmail) {
              entries.push(
                yield* outbox.insert({ ...inviteEmail(invite, organizationName, inviter, site), kind: "invite", related_id: invite.id })
              )
            }
          }
          return { created, entries }
        }))
        yield* delivery.dispatch(entries)
        return created.map((invite) => toInvite(invite, createdBy, now))
      })

      const create = Effect.fn("InviteService.create")(function*(actor: Actor, organization: string, body: Body) {
        const orgAccess = yield* access.organization(actor, organization, "organization_member:write")
        const valid = yield* validate([yield* body], orgAccess, asIs)
        const [invite] = yield* write(actor, orgAccess, valid, asIs)
        return invite!
      })

      const bulk = Effect.fn("InviteService.bulk")(function*(actor: Actor, organization: string, body: Body) {
        const orgAccess = yield* access.organization(actor, organization, "organization_member:write")
        const items = yield* body
        if (!Array.isArray(items)) {
          return yield* ValidationError.field(null, "This endpoint needs an array of data for bulk invite creation.")
        }
        if (items.length > MAX_BULK_INVITES) {
          return yield* ValidationError.field(null, `A maximum of ${MAX_BULK_INVITES} invites can be sent in a single request.`, "max_length")
        }
        if (items.length === 0) return yield* ValidationError.field(null, "This list may not be empty.", "empty")
        const valid = yield* validate(items, orgAccess, atIndex)
        yield* write(actor, orgAccess, valid, atIndex)
      })

      const destroy = Effect.fn("InviteService.destroy")(function*(actor: Actor, organization: string, id: string) {
        const { organization_id } = yield* access.organization(actor, organization, "organization_member:write")
        const uuid = canonicalUuid(id)
        if (uuid === undefined) return yield* NotFound.default()
        const invite = yield* invites.findById(uuid as InviteId).pipe(Effect.flatMap(orNotFound))
        if (invite.organization_id !== organization_id) return yield* NotFound.default()
        yield* invites.remove(invite.id)
      })

      return InviteService.of({ list, create, destroy, bulk })
    })
  )
}
