import type { PropertyOperator } from "@hedgerow/core"
import { type Flag, isRecord } from "./flag.tsx"

/**
 * A flag's editable parts as the form holds them, read from and written back into the API's `filters`.
 * What the form does not edit (other keys of a filter, a group or the filters) is kept as it came, so a
 * save never drops it. The form decides no rule: the API does, and says which field it refuses.
 */

type Json = Record<string, unknown>

export const recordsOf = (value: unknown): Array<Json> => Array.isArray(value) ? value.filter(isRecord) : []

/** Operators whose value is a list (typed comma-separated), and those that take none. */
export const LIST_OPERATORS: ReadonlySet<string> = new Set<PropertyOperator>(["exact", "is_not", "icontains_multi", "not_icontains_multi", "between", "not_between"])
export const VALUELESS_OPERATORS: ReadonlySet<string> = new Set<PropertyOperator>(["is_set", "is_not_set"])

export interface DraftProperty {
  readonly key: string
  readonly type: string
  readonly operator: string
  /** As typed; a list operator's values are comma-separated. */
  readonly value: string
  readonly json: Json
}

export interface DraftGroup {
  readonly properties: ReadonlyArray<DraftProperty>
  readonly rollout: number
  readonly json: Json
}

export interface DraftVariant {
  readonly key: string
  readonly name: string
  readonly rollout: number
  /** JSON text, empty for none. */
  readonly payload: string
}

export interface Draft {
  readonly key: string
  readonly name: string
  readonly active: boolean
  /** Comma-separated. */
  readonly tags: string
  readonly groups: ReadonlyArray<DraftGroup>
  readonly variants: ReadonlyArray<DraftVariant>
  /** A boolean flag's payload (`payloads.true`), JSON text, empty for none. */
  readonly payload: string
  readonly filters: Json
}

/** A value as the form shows it (a payload too): text as is, anything else written as JSON. */
export const textOf = (value: unknown): string =>
  value === undefined || value === null ? "" : typeof value === "string" ? value : JSON.stringify(value)

const valueText = (value: unknown): string => Array.isArray(value) ? value.map(textOf).join(", ") : textOf(value)


export const newProperty = (): DraftProperty => ({ key: "", type: "person", operator: "exact", value: "", json: {} })
export const newGroup = (): DraftGroup => ({ properties: [], rollout: 100, json: {} })
export const newVariant = (index: number): DraftVariant => ({ key: `variant-${index + 1}`, name: "", rollout: 0, payload: "" })

/** `count` shares of 100 as even as whole numbers allow, the first ones a point larger (34, 33, 33). */
const evenSplit = (count: number): Array<number> =>
  Array.from({ length: count }, (_, index) => Math.floor(100 / count) + (index < 100 % count ? 1 : 0))

/** The variants with the split made even. */
export const splitEvenly = (variants: ReadonlyArray<DraftVariant>): Array<DraftVariant> => {
  const shares = evenSplit(variants.length)
  return variants.map((variant, index) => ({ ...variant, rollout: shares[index] ?? 0 }))
}

/**
 * A new flag's draft: off, so that saving it releases nothing; turning it on is a choice of its own,
 * after which its one condition reaches everyone, as a flag with no filter does.
 */
export const emptyDraft = (): Draft => ({
  key: "",
  name: "",
  active: false,
  tags: "",
  groups: [newGroup()],
  variants: [],
  payload: "",
  filters: {}
})

/** What a draft is read from: a flag's editable fields. */
export type Drafted = Pick<Flag, "key" | "name" | "active" | "tags" | "filters">

export const draftOf = (flag: Drafted): Draft => {
  const filters: Json = flag.filters
  const multivariate = isRecord(filters["multivariate"]) ? filters["multivariate"] : {}
  const payloads = isRecord(filters["payloads"]) ? filters["payloads"] : {}
  const variants = recordsOf(multivariate["variants"]).map((variant): DraftVariant => ({
    key: textOf(variant["key"]),
    name: textOf(variant["name"]),
    rollout: typeof variant["rollout_percentage"] === "number" ? variant["rollout_percentage"] : 0,
    payload: textOf(payloads[textOf(variant["key"])])
  }))
  return {
    key: flag.key,
    name: flag.name,
    active: flag.active,
    tags: flag.tags.join(", "),
    groups: recordsOf(filters["groups"]).map((group): DraftGroup => ({
      properties: recordsOf(group["properties"]).map(draftPropertyOf),
      rollout: typeof group["rollout_percentage"] === "number" ? group["rollout_percentage"] : 100,
      json: group
    })),
    variants,
    payload: variants.length === 0 ? textOf(payloads["true"]) : "",
    filters
  }
}

const valueOf = (property: DraftProperty): unknown => {
  if (VALUELESS_OPERATORS.has(property.operator)) return property.operator
  if (LIST_OPERATORS.has(property.operator)) return property.value.split(",").map((item) => item.trim()).filter((item) => item !== "")
  return property.value
}

/** A property filter as the form holds it, from the API's JSON; a filter without a type is on a person. */
export const draftPropertyOf = (property: Json): DraftProperty => ({
  key: textOf(property["key"]),
  type: typeof property["type"] === "string" && property["type"] !== "" ? property["type"] : "person",
  operator: typeof property["operator"] === "string" ? property["operator"] : "exact",
  value: valueText(property["value"]),
  json: property
})

/** A property filter as the API takes it: the form's fields written over what came. */
export const propertyFilterOf = (property: DraftProperty): Json => ({
  ...property.json,
  key: property.key,
  type: property.type,
  operator: property.operator,
  value: valueOf(property)
})

/** Where a payload is not JSON: by variant key (`true` for a boolean flag's), with the parser's words. */
export const payloadErrors = (draft: Draft): Record<string, string> => {
  const errors: Record<string, string> = {}
  const check = (name: string, text: string) => {
    if (text.trim() === "") return
    try {
      JSON.parse(text)
    } catch (cause) {
      errors[name] = `Not valid JSON: ${cause instanceof Error ? cause.message : String(cause)}`
    }
  }
  if (draft.variants.length === 0) check("true", draft.payload)
  else draft.variants.forEach((variant, index) => check(String(index), variant.payload))
  return errors
}

/** The filters to send: the draft written over what came. */
export const filtersOf = (draft: Draft): Json => {
  const payloads: Json = {}
  if (draft.variants.length === 0) {
    if (draft.payload.trim() !== "") payloads["true"] = draft.payload
  } else {
    for (const variant of draft.variants) if (variant.payload.trim() !== "") payloads[variant.key] = variant.payload
  }
  const multivariate = isRecord(draft.filters["multivariate"]) ? draft.filters["multivariate"] : {}
  return {
    ...draft.filters,
    groups: draft.groups.map((group) => ({
      variant: null,
      ...group.json,
      properties: group.properties.map(propertyFilterOf),
      rollout_percentage: group.rollout
    })),
    multivariate: draft.variants.length === 0
      ? null
      : {
        ...multivariate,
        variants: draft.variants.map((variant) => ({ key: variant.key, name: variant.name, rollout_percentage: variant.rollout }))
      },
    payloads
  }
}

/** Tags as typed: comma-separated, trimmed, empty ones left out. */
export const tagsOf = (text: string): Array<string> => text.split(",").map((tag) => tag.trim()).filter((tag) => tag !== "")

/** Whether two drafts send the same thing: what a save would change, if anything. */
export const sameDraft = (one: Draft, other: Draft): boolean =>
  one.key === other.key && one.name === other.name && one.active === other.active &&
  JSON.stringify(tagsOf(one.tags)) === JSON.stringify(tagsOf(other.tags)) &&
  JSON.stringify(filtersOf(one)) === JSON.stringify(filtersOf(other))
