import { authScenarios } from "./auth.ts"
import { batchExportListScenarios } from "./batch-export-list.ts"
import { batchExportScenarios } from "./batch-exports.ts"
import { cliAuthScenarios } from "./cli-auth.ts"
import { cohortAuthScenarios } from "./cohort-auth.ts"
import { cohortFlagScenarios } from "./cohort-flags.ts"
import { cohortMemberScenarios } from "./cohort-members.ts"
import { cohortScenarios } from "./cohorts.ts"
import { cohortValidationScenarios } from "./cohort-validation.ts"
import { discoveryScenarios } from "./discovery.ts"
import { domainAccessScenarios } from "./domain-access.ts"
import { domainVerificationScenarios } from "./domain-verification.ts"
import { domainScenarios } from "./domains.ts"
import { eventScenarios } from "./events.ts"
import { featureFlagActionScenarios } from "./feature-flag-actions.ts"
import { featureFlagActivityScenarios } from "./feature-flag-activity.ts"
import { featureFlagAuthScenarios } from "./feature-flag-auth.ts"
import { featureFlagDependencyScenarios } from "./feature-flag-dependencies.ts"
import { featureFlagLifecycleScenarios } from "./feature-flag-lifecycle.ts"
import { featureFlagListScenarios } from "./feature-flag-list.ts"
import { featureFlagRegressionScenarios } from "./feature-flag-regressions.ts"
import { featureFlagRoleAccessScenarios } from "./feature-flag-role-access.ts"
import { featureFlagTransportScenarios } from "./feature-flag-transport.ts"
import { featureFlagValidationScenarios } from "./feature-flag-validation.ts"
import { featureFlagScenarios } from "./feature-flags.ts"
import { firstDayScenarios } from "./first-day.ts"
import { flagCopyScenarios } from "./flag-copy.ts"
import { flagDefinitionScenarios } from "./flag-definitions.ts"
import { flagEvaluationScenarios } from "./flag-evaluation.ts"
import { flagEvaluationReasonScenarios } from "./flag-evaluation-reasons.ts"
import { flagRemoteConfigScenarios } from "./flag-remote-config.ts"
import { groupTypeScenarios } from "./group-types.ts"
import { inviteMailScenarios } from "./invite-mail.ts"
import { inviteScenarios } from "./invites.ts"
import { keyReachScenarios } from "./key-reach.ts"
import { memberScenarios } from "./members.ts"
import { orgAdminRegressionScenarios } from "./org-admin-regressions.ts"
import { personalApiKeyScenarios } from "./personal-api-keys.ts"
import { organizationScenarios } from "./organizations.ts"
import { projectScenarios } from "./projects.ts"
import { roleScenarios } from "./roles.ts"
import type { Scenario } from "./scenario.ts"
import { sessionScenarios } from "./sessions.ts"
import { ssoEnforcementScenarios } from "./sso-enforcement.ts"
import { transportScenarios } from "./transport.ts"
import { twoFactorScenarios } from "./two-factor.ts"
import { twoFactorEnforcementScenarios } from "./two-factor-enforcement.ts"
import { webhookScenarios } from "./webhooks.ts"

/** The conformance set, written once and run on every target. */
export const scenarios: ReadonlyArray<Scenario> = [
  ...authScenarios,
  ...discoveryScenarios,
  ...personalApiKeyScenarios,
  ...projectScenarios,
  ...memberScenarios,
  ...inviteScenarios,
  ...inviteMailScenarios,
  ...sessionScenarios,
  ...keyReachScenarios,
  ...ssoEnforcementScenarios,
  ...twoFactorScenarios,
  ...twoFactorEnforcementScenarios,
  ...cliAuthScenarios,
  ...domainScenarios,
  ...domainAccessScenarios,
  ...domainVerificationScenarios,
  ...batchExportScenarios,
  ...batchExportListScenarios,
  ...orgAdminRegressionScenarios,
  ...organizationScenarios,
  ...roleScenarios,
  ...firstDayScenarios,
  ...featureFlagScenarios,
  ...featureFlagValidationScenarios,
  ...featureFlagDependencyScenarios,
  ...featureFlagListScenarios,
  ...featureFlagLifecycleScenarios,
  ...featureFlagActivityScenarios,
  ...eventScenarios,
  ...featureFlagRoleAccessScenarios,
  ...featureFlagActionScenarios,
  ...featureFlagAuthScenarios,
  ...featureFlagRegressionScenarios,
  ...featureFlagTransportScenarios,
  ...flagCopyScenarios,
  ...flagDefinitionScenarios,
  ...flagEvaluationScenarios,
  ...flagRemoteConfigScenarios,
  ...flagEvaluationReasonScenarios,
  ...groupTypeScenarios,
  ...cohortScenarios,
  ...cohortValidationScenarios,
  ...cohortMemberScenarios,
  ...cohortAuthScenarios,
  ...cohortFlagScenarios,
  ...webhookScenarios,
  ...transportScenarios
]

export * from "./scenario.ts"
