import { useMemo } from "react"
import { useApi } from "../api/use-api.ts"
import { recordsOf } from "./draft.ts"
import { FLAGS_PATH } from "./flag.tsx"
import { groupsOf } from "./release-words.ts"

/**
 * What the targeting editor suggests as it is typed: property names the project's other flags filter
 * on, then person properties PostHog's SDKs set or people commonly send; for a chosen name, the values
 * other flags compare it with. Suggestions only: any name or value can be typed.
 */

/** PostHog's common person properties, by their names in events and on persons. */
const COMMON_PERSON_PROPERTIES: ReadonlyArray<string> = [
  "email",
  "name",
  "$browser",
  "$browser_version",
  "$os",
  "$os_version",
  "$device_type",
  "$current_url",
  "$pathname",
  "$host",
  "$referrer",
  "$referring_domain",
  "$initial_referrer",
  "$initial_referring_domain",
  "$initial_utm_source",
  "$geoip_country_code",
  "$geoip_country_name",
  "$geoip_city_name",
  "$app_version"
]

/** How many of the project's flags the suggestions are read from (the API's newest first). */
const SUGGESTION_FLAGS = 200

export interface Suggestions {
  readonly names: ReadonlyArray<string>
  readonly valuesOf: (name: string) => ReadonlyArray<string>
}

const listed = (value: unknown): Array<string> =>
  (Array.isArray(value) ? value : [value]).filter((item) => typeof item === "string" || typeof item === "number").map(String)

/** The suggestions from `flags`, the one being edited (`exceptId`) left out. */
const suggestionsOf = (
  flags: ReadonlyArray<{ readonly id: number; readonly filters: Record<string, unknown> }>,
  exceptId: number | undefined
): Suggestions => {
  const values = new Map<string, Set<string>>()
  for (const flag of flags) {
    if (flag.id === exceptId) continue
    for (const group of groupsOf(flag.filters)) {
      for (const property of recordsOf(group["properties"])) {
        const key = property["key"]
        if (typeof key !== "string" || key === "" || (property["type"] !== undefined && property["type"] !== "person")) continue
        const known = values.get(key) ?? new Set<string>()
        for (const value of listed(property["value"])) if (value !== "") known.add(value)
        values.set(key, known)
      }
    }
  }
  const names = [...new Set([...[...values.keys()].sort(), ...COMMON_PERSON_PROPERTIES])]
  return { names, valuesOf: (name) => [...(values.get(name) ?? [])].sort() }
}

const NO_SUGGESTIONS: Suggestions = { names: COMMON_PERSON_PROPERTIES, valuesOf: () => [] }

/** The suggestions for a form of `projectId`'s, read from its flags; common properties alone until they come. */
export const useSuggestions = (projectId: string, exceptId: number | undefined): Suggestions => {
  const flags = useApi(FLAGS_PATH, { params: { project_id: projectId }, query: { limit: String(SUGGESTION_FLAGS) } })
  const results = flags.status === "ready" ? flags.data.results : undefined
  return useMemo(() => results === undefined ? NO_SUGGESTIONS : suggestionsOf(results, exceptId), [results, exceptId])
}
