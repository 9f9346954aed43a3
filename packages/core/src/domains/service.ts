import { Context, Effect, Layer } from "effect"
import type { Actor } from "../auth/actor.ts"
import { requireWholeUser } from "../auth/whole-user.ts"
import { Access, requireAdmin } from "../auth/access.ts"
import type { Body, BodyError } from "../shared/body.ts"
import { NotFound, orNotFound, PermissionDenied, ValidationError } from "../shared/errors.ts"
import { canonicalUuid, type DomainId, type OrganizationId } from "../shared/ids.ts"
import { type ListQuery, type Page, pageRequest } from "../shared/page.ts"
import { newChallenge } from "../shared/secrets.ts"
import { Transactions } from "../shared/transactions.ts"
import { decodeInput } from "../shared/validation.ts"
import { challengeRecordName, DomainChallengeLookup, DomainVerificationSettings } from "./challenge-lookup.ts"
import { DomainNameInput, DomainRenameInput, DomainSettingsInput, VERIFIED_ONLY } from "./input.ts"
import type { Domain, DomainRecord, DomainSettings } from "./model.ts"
import { DomainRepository } from "./repository.ts"
import { toDomain } from "./views.ts"

const decodeName = decodeInput(DomainNameInput)
const decodeRename = decodeInput(DomainRenameInput)
const decodeSettings = decodeInput(DomainSettingsInput)

const domainTaken = () => ValidationError.field("domain", "domain with this domain already exists.", "unique")

/** JIT provisioning and SSO enforcement cannot be switched until the domain is verified. */
const verificationRequired = (field: string) =>
  ValidationError.field(field, "This attribute cannot be updated until the domain is verified.", "verification_required")

/** The settings that decide who may log in as the domain's people: its identity provider, JIT and enforcement. */
const SSO_SETTINGS = ["saml_entity_id", "saml_acs_url", "saml_x509_cert", "jit_provisioning_enabled", "sso_enforcement"] as const

/**
 * An identity provider named by a domain logs in any of the domain's people, and JIT lets it add them to
 * the organization: setting any of that takes a caller with all of its user's rights, never a narrower key.
 */
const requireWholeUserForSso = (actor: Actor, input: Partial<Record<(typeof SSO_SETTINGS)[number], unknown>>) =>
  SSO_SETTINGS.some((field) => input[field] !== undefined) ? requireWholeUser(actor, "Setting up single sign-on") : Effect.void

export class DomainService extends Context.Service<DomainService, {
  readonly list: (actor: Actor, organization: string, query: ListQuery) => Effect.Effect<Page<Domain>, PermissionDenied | NotFound>
  readonly create: (actor: Actor, organization: string, body: Body) => Effect.Effect<Domain, PermissionDenied | NotFound | ValidationError | BodyError>
  readonly retrieve: (actor: Actor, organization: string, id: string) => Effect.Effect<Domain, PermissionDenied | NotFound>
  readonly update: (
    actor: Actor,
    organization: string,
    id: string,
    body: Body
  ) => Effect.Effect<Domain, PermissionDenied | NotFound | ValidationError | BodyError>
  readonly destroy: (actor: Actor, organization: string, id: string) => Effect.Effect<void, PermissionDenied | NotFound>
  /**
   * Looks the challenge up in DNS and records the outcome. Verify answers an empty 200, so the caller
   * reads the outcome with GET. A failed lookup of any kind leaves the domain unverified. The body is
   * optional and ignored.
   */
  readonly verify: (
    actor: Actor,
    organization: string,
    id: string,
    body: Body
  ) => Effect.Effect<void, PermissionDenied | NotFound | ValidationError | BodyError>
}>()("hedgerow/DomainService") {
  static readonly layerNoDeps = Layer.effect(
    DomainService,
    Effect.gen(function*() {
      const access = yield* Access
      const domains = yield* DomainRepository
      const transactions = yield* Transactions
      const lookup = yield* DomainChallengeLookup
      const verification = yield* DomainVerificationSettings

      const readable = (actor: Actor, organization: string) => access.organization(actor, organization, "organization:read")

      // PostHog checks the level before looking the domain up, so a member learns nothing about ids.
      const writable = (actor: Actor, organization: string) =>
        access.organization(actor, organization, "organization:write").pipe(Effect.tap(requireAdmin))

      const find = (organization_id: OrganizationId, id: string, options?: { readonly forUpdate?: boolean }) => {
        const uuid = canonicalUuid(id)
        return uuid === undefined
          ? Effect.fail(NotFound.default())
          : domains.find(organization_id, uuid as DomainId, options).pipe(Effect.flatMap(orNotFound))
      }

      const list = Effect.fn("DomainService.list")(function*(actor: Actor, organization: string, query: ListQuery) {
        const { organization_id } = yield* readable(actor, organization)
        const page = yield* domains.list(organization_id, pageRequest(query))
        return { ...page, results: page.results.map(toDomain) }
      })

      const create = Effect.fn("DomainService.create")(function*(actor: Actor, organization: string, body: Body) {
        const { organization_id } = yield* writable(actor, organization)
        const raw = yield* body
        const { domain } = yield* decodeName(raw)
        if (yield* domains.isTaken(domain)) return yield* domainTaken()
        const input = yield* decodeSettings(raw)
        yield* requireWholeUserForSso(actor, input)
        // JIT provisioning and SSO enforcement need a verified domain, which a new one never is.
        const record = yield* transactions.run(domains.insert({
          organization_id,
          domain,
          verification_challenge: newChallenge(),
          settings: {
            jit_provisioning_enabled: false,
            sso_enforcement: "",
            saml_entity_id: input.saml_entity_id ?? null,
            saml_acs_url: input.saml_acs_url ?? null,
            saml_x509_cert: input.saml_x509_cert ?? null
          }
        })).pipe(
          // Another request may take the name between the check and the insert.
          Effect.catchTag("DomainTaken", () => Effect.fail(domainTaken()))
        )
        return toDomain(record)
      })

      const retrieve = Effect.fn("DomainService.retrieve")(function*(actor: Actor, organization: string, id: string) {
        const { organization_id } = yield* readable(actor, organization)
        return toDomain(yield* find(organization_id, id))
      })

      const update = Effect.fn("DomainService.update")(function*(actor: Actor, organization: string, id: string, body: Body) {
        const { organization_id } = yield* writable(actor, organization)
        const before = yield* find(organization_id, id)
        const raw = yield* body
        // PostHog's field order: the name (and whether another domain has it) before the settings.
        const { domain: name } = yield* decodeRename(raw)
        const renaming = name !== undefined && name !== before.domain
        if (renaming && (yield* domains.isTaken(name))) return yield* domainTaken()
        const input = yield* decodeSettings(raw)
        yield* requireWholeUserForSso(actor, input)
        // The row is locked, so a verification or another edit cannot slip between the check and the write.
        const record = yield* transactions.run(Effect.gen(function*() {
          const locked = yield* find(organization_id, id, { forUpdate: true })
          // A new name must be proven again: the settings below then meet an unverified domain.
          const current = renaming && name !== locked.domain
            ? yield* domains.rename(locked.id, name, newChallenge()).pipe(Effect.catchTag("DomainTaken", () => Effect.fail(domainTaken())))
            : locked
          if (current.verified_at === null) {
            const gated = VERIFIED_ONLY.find((field) => input[field] !== undefined)
            if (gated !== undefined) return yield* verificationRequired(gated)
          }
          return yield* domains.update(current.id, { ...settingsOf(current), ...input })
        }))
        return toDomain(record)
      })

      const destroy = Effect.fn("DomainService.destroy")(function*(actor: Actor, organization: string, id: string) {
        const { organization_id } = yield* writable(actor, organization)
        const { id: found } = yield* find(organization_id, id)
        const deleted = yield* transactions.run(domains.delete(organization_id, found))
        if (!deleted) return yield* NotFound.default()
      })

      const challengeFound = (domain: DomainRecord) =>
        lookup.txt(challengeRecordName(verification, domain.domain)).pipe(
          // PostHog compares each record's first character-string with the challenge.
          Effect.map((records) => records.some((strings) => strings[0] === domain.verification_challenge)),
          Effect.catchTag("ChallengeLookupFailed", (failure) =>
            Effect.logDebug("domain challenge lookup failed", failure.name, failure.reason).pipe(Effect.as(false)))
        )

      const verify = Effect.fn("DomainService.verify")(function*(actor: Actor, organization: string, id: string, body: Body) {
        const { organization_id } = yield* writable(actor, organization)
        const domain = yield* find(organization_id, id)
        // Read only to refuse a malformed one, like any write body; what it says changes nothing.
        yield* body
        if (domain.verified_at !== null) {
          return yield* ValidationError.field(null, "This domain has already been verified.", "already_verified")
        }
        // DNS is asked outside any transaction: a slow answer must not hold a connection or a lock.
        const verified = yield* challengeFound(domain)
        yield* transactions.run(domains.recordVerification(domain.id, domain.verification_challenge, verified))
      })

      return DomainService.of({ list, create, retrieve, update, destroy, verify })
    })
  )
}

const settingsOf = (record: DomainRecord): DomainSettings => ({
  jit_provisioning_enabled: record.jit_provisioning_enabled,
  sso_enforcement: record.sso_enforcement,
  saml_entity_id: record.saml_entity_id,
  saml_acs_url: record.saml_acs_url,
  saml_x509_cert: record.saml_x509_cert
})
