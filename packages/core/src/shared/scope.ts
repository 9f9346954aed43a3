import { Schema } from "effect"

/** Scope objects a personal API key may name, PostHog's own, plus Hedgerow's `webhook` and `user` so PostHog-made scope lists parse. */
export const SCOPE_OBJECTS = [
  "batch_export",
  "organization",
  "organization_member",
  "project",
  "feature_flag",
  "cohort",
  "person",
  "activity_log",
  "access_control",
  "group",
  "webhook",
  "user"
] as const
export type ScopeObject = (typeof SCOPE_OBJECTS)[number]
export type Scope = `${ScopeObject}:${"read" | "write"}`
export type ScopeGrant = Scope | "*"

const SCOPE = new RegExp(`^(${SCOPE_OBJECTS.join("|")}):(read|write)$`)
export const isScopeGrant = (text: string): text is ScopeGrant => text === "*" || SCOPE.test(text)

/** `*` grants everything; `X:write` also grants `X:read`. */
export const grants = (held: ReadonlyArray<string>, required: Scope): boolean => {
  if (held.includes("*") || held.includes(required)) return true
  return required.endsWith(":read") && held.includes(required.replace(/:read$/, ":write"))
}

export const ScopeList = Schema.Array(Schema.String)
