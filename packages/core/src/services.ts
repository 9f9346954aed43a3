import { Layer } from "effect"
import { Access } from "./auth/access.ts"
import { Authentication } from "./auth/authenticate.ts"
import { RateLimiter } from "./auth/throttle.ts"
import { BatchExportService } from "./batch-exports/service.ts"
import { DomainService } from "./domains/service.ts"
import { FeatureFlagServices } from "./feature-flags/layer.ts"
import { InviteService } from "./invites/service.ts"
import { MailDelivery } from "./mail/delivery.ts"
import { MemberService } from "./members/service.ts"
import { OrganizationService } from "./organizations/service.ts"
import { PersonalApiKeyService } from "./personal-api-keys/service.ts"
import { ProjectService } from "./projects/service.ts"
import { RoleService } from "./roles/service.ts"
import { Bootstrap } from "./setup/bootstrap.ts"
import { UserService } from "./users/service.ts"

/** Every core service, wired to each other; needs the repositories and Transactions from a store. */
export const CoreServices = Layer.mergeAll(
  Authentication.layer.pipe(Layer.provide(RateLimiter.layer)),
  OrganizationService.layer,
  ProjectService.layer,
  UserService.layer,
  MemberService.layer,
  InviteService.layer.pipe(Layer.provideMerge(MailDelivery.layer)),
  RoleService.layer,
  BatchExportService.layer,
  DomainService.layer,
  FeatureFlagServices,
  Layer.provideMerge(Bootstrap.layer, PersonalApiKeyService.layer)
).pipe(Layer.provideMerge(Access.layer))
