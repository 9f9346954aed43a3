import type { ScopeObject } from "@hedgerow/core"

/**
 * The words for each scope object core accepts (in types only: the record must name every one of core's
 * scope objects and no other, so the picker cannot offer what the API refuses, nor miss what it grants).
 */
export const SCOPE_WORDS = {
  batch_export: "Batch export",
  organization: "Organization",
  organization_member: "Organization member",
  project: "Project",
  feature_flag: "Feature flag",
  cohort: "Cohort",
  person: "Person",
  activity_log: "Activity log",
  access_control: "Access control",
  group: "Group",
  webhook: "Webhook",
  user: "User"
} as const satisfies Record<ScopeObject, string>

export const SCOPE_OBJECTS = Object.keys(SCOPE_WORDS) as ReadonlyArray<ScopeObject>

export type Level = "none" | "read" | "write"
export const LEVEL_WORDS: ReadonlyArray<readonly [Level, string]> = [["none", "No access"], ["read", "Read"], ["write", "Write"]]

/** The picker's state: everything (`*`), or a level per object. */
export interface ScopeChoice {
  readonly all: boolean
  readonly levels: Readonly<Record<ScopeObject, Level>>
}

const NO_LEVELS = Object.fromEntries(SCOPE_OBJECTS.map((object) => [object, "none"])) as Record<ScopeObject, Level>

export const NO_SCOPES: ScopeChoice = { all: false, levels: NO_LEVELS }

const isScopeObject = (name: string): name is ScopeObject => Object.hasOwn(SCOPE_WORDS, name)

/** A key's scopes as the picker shows them; `X:write` wins over `X:read`, as it grants both. */
export const choiceOf = (scopes: ReadonlyArray<string>): ScopeChoice => {
  const levels = { ...NO_LEVELS }
  for (const scope of scopes) {
    const [object = "", level] = scope.split(":")
    if (isScopeObject(object) && (level === "write" || (level === "read" && levels[object] === "none"))) levels[object] = level
  }
  return { all: scopes.includes("*"), levels }
}

/** The scopes the picker's choice sends: `*` alone, or each object's level (none for none: the API says so). */
export const scopesOf = (choice: ScopeChoice): Array<string> =>
  choice.all ? ["*"] : SCOPE_OBJECTS.filter((object) => choice.levels[object] !== "none").map((object) => `${object}:${choice.levels[object]}`)

/** A key's scopes in words, e.g. "Feature flag: read, Project: write". */
export const scopesSummary = (scopes: ReadonlyArray<string>): string => {
  if (scopes.includes("*")) return "All access"
  return scopes.map((scope) => {
    const [object = "", level = ""] = scope.split(":")
    return isScopeObject(object) ? `${SCOPE_WORDS[object]}: ${level}` : scope
  }).join(", ")
}
