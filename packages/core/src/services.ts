import { Layer } from "effect"
import { Access } from "./auth/access.ts"
import { Authentication } from "./auth/authenticate.ts"
import { LoginPrecheckService } from "./auth/login-precheck.ts"
import { LoginThrottle, RateLimiter } from "./auth/throttle.ts"
import { BatchExportService } from "./batch-exports/service.ts"
import { CliAuthService } from "./cli-auth/service.ts"
import { CohortService } from "./cohorts/service.ts"
import { CohortWriter } from "./cohorts/writer.ts"
import { DomainService } from "./domains/service.ts"
import * as FlagServices from "./feature-flags/layer.ts"
import { GroupTypeService } from "./group-types/service.ts"
import { ProjectGroupTypes } from "./group-types/project-group-types.ts"
import { InviteService } from "./invites/service.ts"
import { MailDelivery } from "./mail/delivery.ts"
import { MemberService } from "./members/service.ts"
import { OrganizationService } from "./organizations/service.ts"
import { PersonalApiKeyService } from "./personal-api-keys/service.ts"
import { ProjectService } from "./projects/service.ts"
import { RoleService } from "./roles/service.ts"
import { SessionService } from "./sessions/service.ts"
import { SignInLinkService } from "./sign-in-links/service.ts"
import { SignupService } from "./signup/service.ts"
import { SsoSignIn } from "./sso/sign-in.ts"
import { OAuthLogin } from "./sso/oauth/service.ts"
import { SsoThrottle } from "./sso/throttle.ts"
import { TwoFactorService } from "./two-factor/service.ts"
import { Bootstrap } from "./setup/bootstrap.ts"
import { UserService } from "./users/service.ts"
import { WebhookService } from "./webhooks/service.ts"

/**
 * Every core service, wired to each other; the repositories and Transactions come from a store. Internal
 * services (access checks, mail delivery) are provided rather than merged, so the layer's type, and the
 * declarations of every layer built on it, name only what `@hedgerow/core` exports.
 */
export const layerNoDeps = Layer.mergeAll(
  // Log-in, its precheck, its two-factor step, log-out and invite sign-up ask Authentication for the
  // request's session. An OAuth log-in ends in SsoSignIn, as every SSO log-in does.
  Layer.mergeAll(
    SessionService.layerNoDeps.pipe(Layer.provide(LoginThrottle.layer)),
    // A sign-in link's failures count toward the same lock-out of an address as a password's.
    SignInLinkService.layerNoDeps.pipe(Layer.provide(LoginThrottle.layer)),
    SignupService.layerNoDeps,
    LoginPrecheckService.layerNoDeps,
    TwoFactorService.layerNoDeps.pipe(Layer.provide(MailDelivery.layerNoDeps)),
    OAuthLogin.layerNoDeps.pipe(Layer.provide(SsoSignIn.layerNoDeps), Layer.provide(SsoThrottle.layer))
  ).pipe(
    Layer.provideMerge(Authentication.layerNoDeps.pipe(Layer.provide(RateLimiter.layer)))
  ),
  OrganizationService.layerNoDeps,
  ProjectService.layerNoDeps,
  // Password changes check the current password against the same lock-out counts as log-in: the layer is
  // built once per build (layers are memoized by reference), so both services hold the one instance.
  UserService.layerNoDeps.pipe(Layer.provide(LoginThrottle.layer)),
  MemberService.layerNoDeps,
  InviteService.layerNoDeps.pipe(Layer.provide(MailDelivery.layerNoDeps)),
  RoleService.layerNoDeps,
  BatchExportService.layerNoDeps,
  DomainService.layerNoDeps,
  SsoSignIn.layerNoDeps,
  // SAML's log-in (built by the HTTP app beside its signature worker) counts its starts with OAuth's, in
  // the one instance: layers are memoized by reference.
  SsoThrottle.layer,
  CliAuthService.layerNoDeps,
  // The events register the group types their `$groupidentify` names.
  // Copying a flag to another project makes the cohorts it names there, as a cohort's own create does.
  FlagServices.layerNoDeps.pipe(Layer.provideMerge(GroupTypeService.layerNoDeps), Layer.provide(CohortWriter.layerNoDeps)),
  CohortService.layerNoDeps.pipe(Layer.provide(CohortWriter.layerNoDeps)),
  WebhookService.layerNoDeps,
  Layer.provideMerge(Bootstrap.layerNoDeps, PersonalApiKeyService.layerNoDeps)
).pipe(
  Layer.provide(Access.layerNoDeps),
  // Evaluation, the project's answer and registration read the same group types, held in memory once.
  Layer.provide(ProjectGroupTypes.layerNoDeps)
)
