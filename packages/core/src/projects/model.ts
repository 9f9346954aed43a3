import { Schema, Struct } from "effect"
import { Bool, Choice, Integer, IntegerBetween, Json, rule, Text } from "../shared/fields.ts"
import { OrganizationId, ProjectId } from "../shared/ids.ts"
import { Timestamp } from "../shared/time.ts"
import { MembershipLevel } from "../organizations/model.ts"
import { TIMEZONES } from "./timezones.ts"

const NullBool = Schema.NullOr(Bool)
const OutNullBool = Schema.NullOr(Schema.Boolean)
const UrlList = Schema.Array(Schema.NullOr(Text({ max: 200, allowBlank: true })))

const DECIMAL = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/
/** Significant digits after the point, as Python's Decimal counts them (exponent included). */
const decimalPlaces = (value: string | number) => {
  const [, , fraction = "", exponent = "0"] = /^\s*[+-]?(\d*)\.?(\d*)(?:[eE]([+-]?\d+))?\s*$/.exec(String(value)) ?? []
  return Math.max(0, fraction.replace(/0+$/, "").length - Number(exponent))
}

/** A number between 0 and 1 with at most two decimals, answered as text like "0.50", as PostHog has it. */
const SampleRate = Schema.Union([Schema.String, Schema.Number]).annotate({
  invalidType: () => ({ code: "invalid_input", detail: "A valid number is required." })
}).check(
  rule<string | number>("invalid_input", (value) => (DECIMAL.test(String(value)) ? undefined : "A valid number is required.")),
  rule<string | number>("max_decimal_places", (value) =>
    decimalPlaces(value) > 2 ? "Ensure that there are no more than 2 decimal places." : undefined),
  rule<string | number>("max_value", (value) => (Number(value) > 1 ? "Ensure this value is less than or equal to 1." : undefined)),
  rule<string | number>("min_value", (value) => (Number(value) < 0 ? "Ensure this value is greater than or equal to 0." : undefined))
)

/** Every writable project setting with its input rule (the fields the API accepts on create). */
const settingsInput = {
  product_description: Schema.NullOr(Text({ max: 1000, allowBlank: true })),
  app_urls: UrlList,
  slack_incoming_webhook: Schema.NullOr(Text({ max: 500, allowBlank: true })),
  anonymize_ips: Bool,
  completed_snippet_onboarding: Bool,
  test_account_filters: Json,
  test_account_filters_default_checked: NullBool,
  path_cleaning_filters: Json,
  is_demo: Bool,
  timezone: Choice(TIMEZONES),
  data_attributes: Json,
  person_display_name_properties: Schema.NullOr(Schema.Array(Text({ max: 400 }))),
  correlation_config: Json,
  autocapture_opt_out: NullBool,
  autocapture_exceptions_opt_in: NullBool,
  autocapture_web_vitals_opt_in: NullBool,
  autocapture_web_vitals_allowed_metrics: Json,
  autocapture_exceptions_errors_to_ignore: Json,
  capture_console_log_opt_in: NullBool,
  capture_performance_opt_in: NullBool,
  session_recording_opt_in: Bool,
  session_recording_sample_rate: Schema.NullOr(SampleRate),
  session_recording_minimum_duration_milliseconds: Schema.NullOr(IntegerBetween(0, 30000)),
  session_recording_linked_flag: Json,
  session_recording_network_payload_capture_config: Json,
  session_replay_config: Json,
  survey_config: Json,
  access_control: Bool,
  week_start_day: Schema.NullOr(Choice([0, 1])),
  primary_dashboard: Schema.NullOr(Integer),
  live_events_columns: Schema.NullOr(Schema.Array(Schema.String)),
  recording_domains: Schema.NullOr(UrlList),
  inject_web_apps: NullBool,
  extra_settings: Json,
  modifiers: Json,
  has_completed_onboarding_for: Json,
  surveys_opt_in: NullBool,
  heatmaps_opt_in: NullBool,
  flags_persistence_default: NullBool
}

/** Stored settings: each input's decoded value, the sample rate normalised to its two-decimal text. */
export const ProjectSettings = Schema.Struct({
  ...Struct.map(settingsInput, Schema.toType),
  session_recording_sample_rate: Schema.NullOr(Schema.String)
})
export type ProjectSettings = typeof ProjectSettings.Type

const projectName = Schema.String.check(
  rule<string>("invalid_input", (s) => (s.trim() === "" ? "Project must have a name!" : undefined)),
  rule<string>("max_length", (s) => (s.length > 200 ? "Ensure this field has no more than 200 characters." : undefined))
)

/** Body of POST /api/organizations/{organization_id}/projects/. Unknown and read-only keys are dropped. */
export const ProjectCreate = Schema.Struct({
  name: Schema.optionalKey(projectName),
  ...(Object.fromEntries(
    Object.entries(settingsInput).map(([key, schema]) => [key, Schema.optionalKey(schema)])
  ) as { [K in keyof typeof settingsInput]: Schema.optionalKey<(typeof settingsInput)[K]> })
})
export type ProjectCreate = typeof ProjectCreate.Type

/** PostHog's defaults for a new project, so a project made here looks like one PostHog made. */
export const DEFAULT_SETTINGS: ProjectSettings = {
  product_description: null,
  app_urls: [],
  slack_incoming_webhook: null,
  anonymize_ips: false,
  completed_snippet_onboarding: false,
  test_account_filters: [],
  test_account_filters_default_checked: null,
  path_cleaning_filters: [],
  is_demo: false,
  timezone: "UTC",
  data_attributes: ["data-attr"],
  person_display_name_properties: null,
  correlation_config: {},
  autocapture_opt_out: null,
  autocapture_exceptions_opt_in: null,
  autocapture_web_vitals_opt_in: null,
  autocapture_web_vitals_allowed_metrics: null,
  autocapture_exceptions_errors_to_ignore: null,
  capture_console_log_opt_in: true,
  capture_performance_opt_in: true,
  session_recording_opt_in: false,
  session_recording_sample_rate: null,
  session_recording_minimum_duration_milliseconds: null,
  session_recording_linked_flag: null,
  session_recording_network_payload_capture_config: null,
  session_replay_config: null,
  survey_config: null,
  access_control: false,
  week_start_day: 0,
  primary_dashboard: null,
  live_events_columns: null,
  recording_domains: null,
  inject_web_apps: null,
  extra_settings: null,
  modifiers: null,
  has_completed_onboarding_for: null,
  surveys_opt_in: null,
  heatmaps_opt_in: null,
  flags_persistence_default: false
}

export const DEFAULT_PROJECT_NAME = "Default project"

/** A stored project. PostHog splits a project from its environment; here the two are one, under one id. */
export const Project = Schema.Struct({
  id: ProjectId,
  uuid: Schema.String,
  organization_id: OrganizationId,
  name: Schema.String,
  api_token: Schema.String,
  ingested_event: Schema.Boolean,
  settings: ProjectSettings,
  created_at: Timestamp,
  updated_at: Timestamp
})
export type Project = typeof Project.Type

/** What a new project's row is given; the database fills in the rest. */
export const NewProject = Project.mapFields(Struct.pick(["organization_id", "name", "api_token", "settings"]))
export type NewProject = typeof NewProject.Type

/** The project list item: exactly these fields, fewer than create and retrieve return. */
export const ProjectListItem = Schema.Struct({
  id: ProjectId,
  uuid: Schema.String,
  organization: OrganizationId,
  api_token: Schema.String,
  name: Schema.String,
  completed_snippet_onboarding: Schema.Boolean,
  has_completed_onboarding_for: Json,
  ingested_event: Schema.Boolean,
  is_demo: Schema.Boolean,
  timezone: Schema.String,
  access_control: Schema.Boolean
})
export type ProjectListItem = typeof ProjectListItem.Type

/** The full project returned by create and retrieve. */
export const ProjectView = Schema.Struct({
  id: ProjectId,
  uuid: Schema.String,
  organization: OrganizationId,
  name: Schema.String,
  product_description: Schema.NullOr(Schema.String),
  created_at: Timestamp,
  updated_at: Timestamp,
  effective_membership_level: Schema.NullOr(MembershipLevel),
  has_group_types: Schema.Boolean,
  live_events_token: Schema.NullOr(Schema.String),
  api_token: Schema.String,
  app_urls: Schema.Array(Schema.NullOr(Schema.String)),
  slack_incoming_webhook: Schema.NullOr(Schema.String),
  anonymize_ips: Schema.Boolean,
  completed_snippet_onboarding: Schema.Boolean,
  ingested_event: Schema.Boolean,
  test_account_filters: Json,
  test_account_filters_default_checked: OutNullBool,
  path_cleaning_filters: Json,
  is_demo: Schema.Boolean,
  timezone: Schema.String,
  data_attributes: Json,
  person_display_name_properties: Schema.NullOr(Schema.Array(Schema.String)),
  correlation_config: Json,
  autocapture_opt_out: OutNullBool,
  autocapture_exceptions_opt_in: OutNullBool,
  autocapture_web_vitals_opt_in: OutNullBool,
  autocapture_web_vitals_allowed_metrics: Json,
  autocapture_exceptions_errors_to_ignore: Json,
  capture_console_log_opt_in: OutNullBool,
  capture_performance_opt_in: OutNullBool,
  session_recording_opt_in: Schema.Boolean,
  session_recording_sample_rate: Schema.NullOr(Schema.String),
  session_recording_minimum_duration_milliseconds: Schema.NullOr(Schema.Int),
  session_recording_linked_flag: Json,
  session_recording_network_payload_capture_config: Json,
  session_replay_config: Json,
  survey_config: Json,
  access_control: Schema.Boolean,
  week_start_day: Schema.NullOr(Schema.Int),
  primary_dashboard: Schema.NullOr(Schema.Int),
  live_events_columns: Schema.NullOr(Schema.Array(Schema.String)),
  recording_domains: Schema.NullOr(Schema.Array(Schema.NullOr(Schema.String))),
  person_on_events_querying_enabled: Schema.String,
  inject_web_apps: OutNullBool,
  extra_settings: Json,
  modifiers: Json,
  default_modifiers: Schema.String,
  has_completed_onboarding_for: Json,
  surveys_opt_in: OutNullBool,
  heatmaps_opt_in: OutNullBool,
  product_intents: Schema.String,
  flags_persistence_default: OutNullBool
})
export type ProjectView = typeof ProjectView.Type

/** The current project as `/api/users/@me/` embeds it (`team`). */
export const ProjectSummary = Schema.Struct({
  id: ProjectId,
  uuid: Schema.String,
  organization: OrganizationId,
  name: Schema.String,
  api_token: Schema.String
})
export type ProjectSummary = typeof ProjectSummary.Type
