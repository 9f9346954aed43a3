import { Context, type Effect, type Option } from "effect"
import type { DomainId, OrganizationId } from "../shared/ids.ts"
import type { Page, PageRequest } from "../shared/page.ts"
import type { DomainRecord, DomainSettings } from "./model.ts"

/** Domains are unique across every organization; the insert found this one taken. */
export class DomainTaken {
  readonly _tag = "DomainTaken"
}

export class DomainRepository extends Context.Service<DomainRepository, {
  readonly insert: (input: {
    readonly organization_id: OrganizationId
    readonly domain: string
    readonly verification_challenge: string
    readonly settings: DomainSettings
  }) => Effect.Effect<DomainRecord, DomainTaken>
  /**
   * The domain of this name whose organization has proven it owns it, whichever organization that is; the
   * name is folded to lower case as the store folds users' e-mails when it looks them up.
   */
  readonly findVerified: (domain: string) => Effect.Effect<Option.Option<DomainRecord>>
  /** Whether any verified domain has a SAML identity provider set up, so that SAML log-ins can happen here. */
  readonly anySaml: Effect.Effect<boolean>
  /** Whether any organization has this domain. */
  readonly isTaken: (domain: string) => Effect.Effect<boolean>
  /** A domain of this organization; `forUpdate` locks its row until the transaction ends. */
  readonly find: (
    organization: OrganizationId,
    id: DomainId,
    options?: { readonly forUpdate?: boolean }
  ) => Effect.Effect<Option.Option<DomainRecord>>
  /** The organization's domains ordered by name (unique, so the order is stable). */
  readonly list: (organization: OrganizationId, page: PageRequest) => Effect.Effect<Page<DomainRecord>>
  readonly update: (id: DomainId, settings: DomainSettings) => Effect.Effect<DomainRecord>
  /**
   * A new name starts unproven: a new challenge, no verification, and JIT provisioning and SSO
   * enforcement off, since both need a verified domain. Fails when another domain has the name.
   */
  readonly rename: (id: DomainId, domain: string, verification_challenge: string) => Effect.Effect<DomainRecord, DomainTaken>
  /** False when there was nothing to delete. */
  readonly delete: (organization: OrganizationId, id: DomainId) => Effect.Effect<boolean>
  /**
   * The outcome of a DNS check on a still unverified domain: verified now (retry cleared), or the time
   * of this failed retry. A domain verified meanwhile keeps its first verification time; one renamed
   * meanwhile (a rename draws a new challenge) is left alone, so a lookup made for one name cannot
   * verify another.
   */
  readonly recordVerification: (id: DomainId, challenge: string, verified: boolean) => Effect.Effect<void>
}>()("hedgerow/DomainRepository") {}
