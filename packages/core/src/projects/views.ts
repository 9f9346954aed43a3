import type { MembershipLevel } from "../organizations/model.ts"
import type { Project, ProjectListItem, ProjectSummary, ProjectView } from "./model.ts"

/** PostHog's persons-on-events mode for new projects; there is no event store to vary it. */
const PERSONS_ON_EVENTS_MODE = "person_id_override_properties_on_events"
/** The API types these as strings; they carry the JSON text PostHog would send. */
const DEFAULT_MODIFIERS = JSON.stringify({ personsOnEventsMode: PERSONS_ON_EVENTS_MODE })
const NO_PRODUCT_INTENTS = "[]"

export const toProjectListItem = (project: Project): ProjectListItem => ({
  id: project.id,
  uuid: project.uuid,
  organization: project.organization_id,
  api_token: project.api_token,
  name: project.name,
  completed_snippet_onboarding: project.settings.completed_snippet_onboarding,
  has_completed_onboarding_for: project.settings.has_completed_onboarding_for,
  ingested_event: project.ingested_event,
  is_demo: project.settings.is_demo,
  timezone: project.settings.timezone,
  access_control: project.settings.access_control
})

/** `hasGroupTypes`: whether the project has any group type, which PostHog's project answer tells. */
export const toProjectView = (project: Project, level: MembershipLevel | null, hasGroupTypes: boolean): ProjectView => ({
  ...project.settings,
  id: project.id,
  uuid: project.uuid,
  organization: project.organization_id,
  name: project.name,
  created_at: project.created_at,
  updated_at: project.updated_at,
  effective_membership_level: level,
  has_group_types: hasGroupTypes,
  live_events_token: null,
  api_token: project.api_token,
  ingested_event: project.ingested_event,
  person_on_events_querying_enabled: PERSONS_ON_EVENTS_MODE,
  default_modifiers: DEFAULT_MODIFIERS,
  product_intents: NO_PRODUCT_INTENTS
})

export const toProjectSummary = (project: Project): ProjectSummary => ({
  id: project.id,
  uuid: project.uuid,
  organization: project.organization_id,
  name: project.name,
  api_token: project.api_token
})
