import { HttpApi, OpenApi } from "effect/http-api"
import { BatchExportsGroup } from "./groups/batch-exports.ts"
import { CaptureGroup } from "./groups/capture.ts"
import { CohortsGroup } from "./groups/cohorts.ts"
import { DomainsGroup } from "./groups/domains.ts"
import { FeatureFlagsGroup } from "./groups/feature-flags.ts"
import { FlagCopyGroup } from "./groups/flag-copy.ts"
import { FlagDefinitionsGroup } from "./groups/flag-definitions.ts"
import { FlagEvaluationGroup } from "./groups/flag-evaluation.ts"
import { FlagRoleAccessGroup } from "./groups/flag-role-access.ts"
import { GroupTypesGroup } from "./groups/group-types.ts"
import { FlagUsageGroup } from "./groups/flag-usage.ts"
import { IdentityGroup } from "./groups/identity.ts"
import { InvitesGroup } from "./groups/invites.ts"
import { LoginPrecheckGroup } from "./groups/login-precheck.ts"
import { MembersGroup } from "./groups/members.ts"
import { OrganizationProjectsGroup } from "./groups/organization-projects.ts"
import { OrganizationsGroup } from "./groups/organizations.ts"
import { PersonalApiKeysGroup } from "./groups/personal-api-keys.ts"
import { ProjectsGroup } from "./groups/projects.ts"
import { RolesGroup } from "./groups/roles.ts"
import { SdkConfigGroup } from "./groups/sdk-config.ts"
import { SessionsGroup } from "./groups/sessions.ts"
import { SignupGroup } from "./groups/signup.ts"
import { SystemGroup } from "./groups/system.ts"
import { TwoFactorGroup, TwoFactorLoginGroup } from "./groups/two-factor.ts"
import { WebhooksGroup } from "./groups/webhooks.ts"
import { RequestDecoding } from "./decoding.ts"
import { withSessionSecurity } from "./security.ts"

/** The whole HTTP contract, shared by the server, the CLI's client and the harness. */
export class HedgerowApi extends HttpApi.make("hedgerow")
  .add(OrganizationsGroup)
  .add(OrganizationProjectsGroup)
  .add(DomainsGroup)
  .add(BatchExportsGroup)
  .add(InvitesGroup)
  .add(MembersGroup)
  .add(RolesGroup)
  .add(ProjectsGroup)
  .add(FeatureFlagsGroup)
  .add(FlagRoleAccessGroup)
  .add(FlagCopyGroup)
  .add(FlagDefinitionsGroup)
  .add(FlagEvaluationGroup)
  .add(GroupTypesGroup)
  .add(FlagUsageGroup)
  .add(SdkConfigGroup)
  .add(CaptureGroup)
  .add(CohortsGroup)
  .add(WebhooksGroup)
  // Before identity: `/api/personal_api_keys/:id/` serves every method on `@current` but GET.
  .add(PersonalApiKeysGroup)
  .add(IdentityGroup)
  .add(SessionsGroup)
  .add(LoginPrecheckGroup)
  .add(SignupGroup)
  .add(TwoFactorGroup)
  .add(TwoFactorLoginGroup)
  .add(SystemGroup)
  .middleware(RequestDecoding)
  .annotate(OpenApi.Transform, withSessionSecurity)
  .annotateMerge(OpenApi.annotations({
    title: "Hedgerow",
    version: "0.1.0",
    description: "PostHog-compatible organization administration, feature-flag management and flag evaluation API"
  }))
{}
