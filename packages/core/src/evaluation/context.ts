import type { Properties, PropertySources } from "./operators.ts"

/**
 * Whom flags are evaluated for: what a `/flags` request carries (or an embedding app passes). Hedgerow
 * keeps no persons or groups, so the properties given are all there is.
 */
export interface EvaluationContext {
  readonly distinct_id: string
  /** `$device_id`: what flags bucketed by device hash; a person property `$device_id` stands in for it. */
  readonly device_id?: string | null | undefined
  /** `$anon_distinct_id`: what flags with experience continuity hash, when given. */
  readonly anon_distinct_id?: string | null | undefined
  readonly person_properties?: Properties | undefined
  /** Group type name to group key. */
  readonly groups?: Readonly<Record<string, unknown>> | undefined
  /** Group type name to the group's properties. */
  readonly group_properties?: Readonly<Record<string, Properties>> | undefined
  /**
   * The static cohorts, by id, whose list holds `distinct_id`: asked of the store before evaluating, as
   * evaluation itself reads nothing. None given, the person is in no static cohort.
   */
  readonly cohort_members?: ReadonlySet<number> | undefined
  /** Only these flags (their dependencies are still evaluated). */
  readonly only?: ReadonlyArray<string> | undefined
  /** The instant relative dates count back from. */
  readonly now?: Date | undefined
}

/**
 * Person properties PostHog sets from an event's property on first sight, so that the service, when a
 * person lacks one, reads its current counterpart instead (ingestion writes it late).
 */
const INITIAL_OF: ReadonlyMap<string, string> = new Map([
  ...[
    "$app_build", "$app_name", "$app_namespace", "$app_version", "$browser", "$browser_version", "$device_type",
    "$current_url", "$pathname", "$os", "$os_version", "$referring_domain", "$referrer", "$screen_height",
    "$screen_width", "$viewport_height", "$viewport_width", "$raw_user_agent"
  ].map((key): [string, string] => [key, `$initial_${key.slice(1)}`]),
  ...[
    "utm_source", "utm_medium", "utm_campaign", "utm_content", "utm_term", "gclid", "gad_source", "gclsrc",
    "dclid", "gbraid", "wbraid", "fbclid", "msclkid", "twclid", "li_fat_id", "mc_cid", "igshid", "ttclid",
    "rdt_cid", "epik", "qclid", "sccid", "irclid", "_kx"
  ].map((key): [string, string] => [key, `$initial_${key}`])
])

/**
 * A person's properties: those given, with `distinct_id` unless given (the SDK adds it before
 * evaluating, the service when it reads the person), and for the service the missing `$initial_` ones.
 */
export const personSources = (context: EvaluationContext): PropertySources => {
  const sdk: Record<string, unknown> = { distinct_id: context.distinct_id, ...context.person_properties }
  let service: Record<string, unknown> | undefined
  for (const key of Object.keys(sdk)) {
    const initial = INITIAL_OF.get(key)
    if (initial === undefined || Object.prototype.hasOwnProperty.call(sdk, initial)) continue
    service ??= { ...sdk }
    service[initial] = sdk[key]
  }
  return { sdk, service: service ?? sdk }
}

const nonEmptyText = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined)

export const deviceIdOf = (context: EvaluationContext): string | undefined =>
  nonEmptyText(context.device_id) ?? nonEmptyText(context.person_properties?.["$device_id"])
