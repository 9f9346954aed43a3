import { Effect, Schema, SchemaAST, SchemaIssue } from "effect"
import { ValidationError } from "./errors.ts"
import { holdsLoneSurrogate, holdsNul } from "./text.ts"

/**
 * Request input decoded into PostHog's validation errors. PostHog reports the first failing field, with a
 * fixed message for each kind of failure; this turns the first Effect Schema issue into that message, so
 * no input schema in core has to repeat it.
 */

/** Python's name for a JSON value's type, as PostHog's messages put it. */
export const pythonType = (value: unknown): string => {
  if (value === null) return "NoneType"
  if (Array.isArray(value)) return "list"
  switch (typeof value) {
    case "string":
      return "str"
    case "number":
      return Number.isInteger(value) ? "int" : "float"
    case "boolean":
      return "bool"
    case "object":
      return "dict"
    default:
      return typeof value
  }
}

/** Containers deeper than this, or text past this length, are cut short: a message echoes, it does not dump. */
const MAX_SHOWN_DEPTH = 8
const MAX_SHOWN_LENGTH = 1000

/** Python's repr() of a string: single quotes unless the text holds one and no double quote. */
const pythonRepr = (text: string): string => {
  const quote = text.includes("'") && !text.includes("\"") ? "\"" : "'"
  const escaped = text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/\r/g, "\\r").replace(/\t/g, "\\t")
  return quote + (quote === "'" ? escaped.replace(/'/g, "\\'") : escaped) + quote
}

const shown = (value: unknown, depth: number, nested: boolean): string => {
  if (value === null || value === undefined) return "None"
  if (typeof value === "boolean") return value ? "True" : "False"
  if (typeof value === "string") return nested ? pythonRepr(value) : value
  if (typeof value !== "object") return String(value)
  if (depth >= MAX_SHOWN_DEPTH) return "..."
  return Array.isArray(value)
    ? `[${value.map((item) => shown(item, depth + 1, true)).join(", ")}]`
    : `{${Object.entries(value).map(([key, item]) => `${pythonRepr(key)}: ${shown(item, depth + 1, true)}`).join(", ")}}`
}

/**
 * Python's str() of a JSON value, as PostHog quotes a refused input (`"True" is not a valid choice.`,
 * `"[8]" is not a valid choice.`), cut short when huge.
 */
export const pythonStr = (value: unknown): string => {
  const text = shown(value, 0, false)
  return text.length > MAX_SHOWN_LENGTH ? `${text.slice(0, MAX_SHOWN_LENGTH)}...` : text
}

const valueAt = (root: unknown, path: ReadonlyArray<PropertyKey>): unknown => {
  let value = root
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined
    value = (value as Record<PropertyKey, unknown>)[key]
  }
  return value
}

const invalidTypeMessage = (ast: SchemaAST.AST, value: unknown, nested: boolean): { code: string; detail: string } => {
  const annotated = ast.annotations?.["invalidType"]
  if (typeof annotated === "function") return annotated(value)
  switch (ast._tag) {
    case "String":
      return { code: "invalid_input", detail: "Not a valid string." }
    case "Boolean":
      return { code: "invalid_input", detail: "Must be a valid boolean." }
    case "Number":
      return { code: "invalid_input", detail: "A valid number is required." }
    case "Arrays":
      return { code: "not_a_list", detail: `Expected a list of items but got type "${pythonType(value)}".` }
    case "Objects":
      return nested
        ? { code: "not_a_dict", detail: `Expected a dictionary of items but got type "${pythonType(value)}".` }
        : { code: "invalid_input", detail: `Invalid data. Expected a dictionary, but got ${pythonType(value)}.` }
    case "Literal":
    case "Union":
      return { code: "invalid_choice", detail: `"${pythonStr(value)}" is not a valid choice.` }
    default:
      return { code: "invalid_input", detail: "Invalid input." }
  }
}

type Found = { readonly path: ReadonlyArray<PropertyKey>; readonly code: string; readonly detail: string }

const firstIssue = (issue: SchemaIssue.Issue, path: ReadonlyArray<PropertyKey>, input: unknown): Found => {
  switch (issue._tag) {
    case "Pointer":
      return firstIssue(issue.issue, [...path, ...issue.path], input)
    case "Composite":
      return firstIssue(issue.issues[0], path, input)
    case "Encoding":
      return firstIssue(issue.issue, path, input)
    case "Filter": {
      const annotations = issue.filter.annotations
      const inner = issue.issue._tag === "InvalidValue" ? issue.issue.annotations?.message : undefined
      const detail = typeof inner === "string" ? inner : typeof annotations?.message === "string" ? annotations.message : undefined
      if (detail === undefined) return firstIssue(issue.issue, path, input)
      return { path, code: typeof annotations?.["code"] === "string" ? annotations["code"] : "invalid_input", detail }
    }
    case "MissingKey":
      return { path, code: "required", detail: "This field is required." }
    case "InvalidType": {
      const value = valueAt(input, path)
      if (value === null) return { path, code: "null", detail: "This field may not be null." }
      return { path, ...invalidTypeMessage(issue.ast, value, path.length > 0) }
    }
    case "AnyOf": {
      const value = valueAt(input, path)
      if (value === null) return { path, code: "null", detail: "This field may not be null." }
      // A nullable field is a union with null: report what its non-null member says about the value.
      const relevant = issue.issues.filter((inner) => !(inner._tag === "InvalidType" && inner.ast._tag === "Null"))
      if (relevant.length === 1) return firstIssue(relevant[0]!, path, input)
      const members = issue.ast.types.filter((member) => member._tag !== "Null")
      const ast = members.length === 1 && issue.ast.annotations?.["invalidType"] === undefined ? members[0]! : issue.ast
      return { path, ...invalidTypeMessage(ast, value, path.length > 0) }
    }
    case "InvalidValue": {
      const message = issue.annotations?.message
      return { path, code: "invalid_input", detail: typeof message === "string" ? message : "Invalid input." }
    }
    case "OneOf":
    case "Forbidden":
    case "UnexpectedKey":
      return { path, code: "invalid_input", detail: "Invalid input." }
  }
}

/** The ValidationError PostHog would answer for this issue: the first failing field, its path joined by `__` in attr. */
export const toValidationError = (issue: SchemaIssue.Issue, input: unknown): ValidationError => {
  const found = firstIssue(issue, [], input)
  const attr = found.path.length === 0 ? null : found.path.map(String).join("__")
  return new ValidationError({ code: found.code, detail: found.detail, attr })
}

/** JSON deeper than this is refused: no real setting nests so far, and deeper input only costs stack. */
export const MAX_JSON_DEPTH = 100

type Hazard = { readonly path: ReadonlyArray<PropertyKey>; readonly kind: "nul" | "surrogate" | "depth" }

const textHazard = (text: string): Hazard["kind"] | undefined =>
  holdsNul(text) ? "nul" : holdsLoneSurrogate(text) ? "surrogate" : undefined

/**
 * The first NUL character or lone surrogate (keys included) or over-deep nesting in a JSON value. Walked
 * with an explicit stack, so hostile nesting cannot overflow the call stack.
 */
const hazardIn = (root: unknown): Hazard | undefined => {
  const stack: Array<{ value: unknown; path: ReadonlyArray<PropertyKey> }> = [{ value: root, path: [] }]
  while (stack.length > 0) {
    const { value, path } = stack.pop()!
    if (typeof value === "string") {
      const kind = textHazard(value)
      if (kind !== undefined) return { path, kind }
    } else if (value !== null && typeof value === "object") {
      if (path.length >= MAX_JSON_DEPTH) return { path: path.slice(0, 1), kind: "depth" }
      const entries = Array.isArray(value) ? value.map((item, i) => [i, item] as const) : Object.entries(value)
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, inner] = entries[i]!
        const kind = typeof key === "string" ? textHazard(key) : undefined
        if (kind !== undefined) return { path: [...path, key], kind }
        stack.push({ value: inner, path: [...path, key] })
      }
    }
  }
  return undefined
}

const hazardError = (hazard: Hazard) => {
  const attr = hazard.path.length === 0 ? null : hazard.path.map(String).join("__")
  return hazard.kind === "nul"
    ? new ValidationError({ code: "null_characters_not_allowed", detail: "Null characters are not allowed.", attr })
    : hazard.kind === "surrogate"
    ? new ValidationError({ code: "surrogate_characters_not_allowed", detail: "Surrogate characters are not allowed.", attr })
    : new ValidationError({ code: "invalid_input", detail: `Nested too deeply: at most ${MAX_JSON_DEPTH} levels.`, attr })
}

/**
 * Decodes untrusted input (a parsed JSON body) with a core input schema, failing as PostHog fails.
 * PostgreSQL text and jsonb cannot hold NUL, so NUL is refused before the database sees it, with
 * PostHog's message; so are lone surrogates, which no UTF-8 text holds, and nesting no setting needs.
 */
export const decodeInput = <S extends Schema.Decoder<unknown>>(schema: S) => {
  const decode = Schema.decodeUnknownEffect(schema)
  return (input: unknown): Effect.Effect<S["Type"], ValidationError> =>
    decode(input).pipe(
      Effect.mapError((error) => toValidationError(error.issue, input)),
      // Only what the schema kept is checked: unknown fields are dropped, as PostHog drops them, NUL and all.
      Effect.flatMap((decoded) => {
        const hazard = hazardIn(decoded)
        return hazard === undefined ? Effect.succeed(decoded) : Effect.fail(hazardError(hazard))
      })
    ) as Effect.Effect<S["Type"], ValidationError>
}
