import { Effect, Schema, SchemaAST, SchemaIssue } from "effect"
import { ValidationError } from "./errors.ts"

/**
 * Decoding of request input into PostHog's validation errors. Django REST framework reports the first
 * failing field with a fixed message per kind of failure; this turns the first Effect Schema issue into
 * that message, so every input schema in core speaks DRF without repeating it.
 */

/** Python's name for a JSON value's type, as DRF puts it in its messages. */
const pythonType = (value: unknown): string => {
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
      return { code: "invalid_choice", detail: `"${String(value)}" is not a valid choice.` }
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
      // A nullable field is a union with null: report what the non-null member said.
      const relevant = issue.issues.filter((inner) => !(inner._tag === "InvalidType" && inner.ast._tag === "Null"))
      if (relevant.length === 1) return firstIssue(relevant[0]!, path, input)
      return { path, ...invalidTypeMessage(issue.ast, value, path.length > 0) }
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

/** The ValidationError DRF would give for this issue: first failing field, `__`-joined attr. */
export const toValidationError = (issue: SchemaIssue.Issue, input: unknown): ValidationError => {
  const found = firstIssue(issue, [], input)
  const attr = found.path.length === 0 ? null : found.path.map(String).join("__")
  return new ValidationError({ code: found.code, detail: found.detail, attr })
}

/** Where the first NUL character sits in a JSON value (keys included), if anywhere. */
const nulPath = (value: unknown, path: ReadonlyArray<PropertyKey>): ReadonlyArray<PropertyKey> | undefined => {
  if (typeof value === "string") return value.includes("\u0000") ? path : undefined
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulPath(value[i], [...path, i])
      if (found) return found
    }
    return undefined
  }
  if (value !== null && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      if (key.includes("\u0000")) return [...path, key]
      const found = nulPath(inner, [...path, key])
      if (found) return found
    }
  }
  return undefined
}

/**
 * Decodes untrusted input (a parsed JSON body) with a core input schema, failing like DRF. PostgreSQL
 * text and jsonb cannot hold NUL, so like DRF's ProhibitNullCharactersValidator it is refused up front,
 * for every field at once, instead of failing in the database.
 */
export const decodeInput = <S extends Schema.Decoder<unknown>>(schema: S) => {
  const decode = Schema.decodeUnknownEffect(schema)
  return (input: unknown): Effect.Effect<S["Type"], ValidationError> => {
    const nul = nulPath(input, [])
    if (nul !== undefined) {
      return Effect.fail(new ValidationError({
        code: "null_characters_not_allowed",
        detail: "Null characters are not allowed.",
        attr: nul.length === 0 ? null : nul.map(String).join("__")
      }))
    }
    return decode(input).pipe(
      Effect.mapError((error) => toValidationError(error.issue, input))
    ) as Effect.Effect<S["Type"], ValidationError>
  }
}
