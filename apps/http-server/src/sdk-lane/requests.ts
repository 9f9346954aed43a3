import { HedgerowApi } from "@hedgerow/api"
import type { IncomingMessage } from "node:http"
import { MAX_BODY_BYTES } from "../request/bounded-body.ts"
import { type RequestTarget, requestUrl } from "../request/url.ts"
import type { ServerSettingsShape } from "../settings/server-settings.ts"

/**
 * Which requests the SDK lane takes: the SDKs' evaluation and definitions polls, in the plain form the
 * SDKs send them. A request that differs in anything the lane would answer differently from HttpApi (a
 * body in chunks or over the limit, a session instead of a key, an escaped path segment, an absolute
 * target) is left to HttpApi whole, untouched.
 */

const { flagEvaluation, flagDefinitions } = HedgerowApi.groups

/** An evaluation: `/flags` or `/decide` and its query, with a body of a declared length within the limit. */
export interface FlagsRequest {
  readonly _tag: "Flags"
  readonly path: "flags" | "decide"
  /** The contract's path, which the request log names. */
  readonly template: string
  readonly query: URLSearchParams
}

/** A definitions poll by a personal API key, for the caller's current project or the path's. */
export interface DefinitionsRequest {
  readonly _tag: "Definitions"
  /** The project id of the path, or undefined for the caller's current project. */
  readonly project: string | undefined
  readonly template: string
  readonly query: URLSearchParams
  readonly credential: string
}

export type LaneRequest = FlagsRequest | DefinitionsRequest

const EVALUATION = /^\/(flags|decide)\/?$/
const DEFINITIONS = /^\/(?:(flags)\/definitions|api\/feature_flag\/local_evaluation)\/?$/
// The router decodes a segment's escapes; one without any is the same decoded.
const PROJECT_DEFINITIONS = /^\/api\/projects\/([\w.~@-]+)\/feature_flags\/local_evaluation\/?$/

/**
 * A bearer credential as HttpApi reads it (the scheme in any case, one space, then any further spaces
 * skipped); undefined for none or a blank one, which the caller's session would then stand for.
 */
export const bearerCredential = (authorization: string | undefined): string | undefined => {
  if (authorization === undefined || authorization.length <= 7 || authorization.charCodeAt(6) !== 32) return undefined
  if (authorization.slice(0, 6).toLowerCase() !== "bearer") return undefined
  const credential = authorization.slice(7)
  return credential.trim() === "" ? undefined : credential
}

/**
 * The length of the body as the request declares it (none declared is none, as Node reads it), or
 * undefined for a body in chunks, whose length is known only once it is read. Node refuses a
 * Content-Length that is not a number before any listener sees the request.
 */
const declaredLength = (request: IncomingMessage): number | undefined =>
  request.headers["transfer-encoding"] === undefined ? Number(request.headers["content-length"] ?? 0) : undefined

/** The request as the lane takes it, or undefined for one it leaves to HttpApi (a Host that is not a host is HttpApi's 400). */
export const laneRequestOf = (request: IncomingMessage, settings: ServerSettingsShape): LaneRequest | undefined => {
  const url = request.url
  if (url === undefined || url.charCodeAt(0) !== 47 || url.includes("#")) return undefined
  if (requestUrl(request as RequestTarget, settings) === undefined) return undefined
  const mark = url.indexOf("?")
  const path = mark === -1 ? url : url.slice(0, mark)
  const query = () => new URLSearchParams(mark === -1 ? "" : url.slice(mark + 1))
  if (request.method === "POST") {
    const evaluation = EVALUATION.exec(path)
    const length = declaredLength(request)
    if (evaluation === null || length === undefined || length > MAX_BODY_BYTES) return undefined
    const name = evaluation[1] as "flags" | "decide"
    return { _tag: "Flags", path: name, template: flagEvaluation.endpoints[name].path, query: query() }
  }
  // A poll with a body is HttpApi's: its adapter reads a little of it and closes the connection past that.
  if (request.method !== "GET" || declaredLength(request) !== 0) return undefined
  const credential = bearerCredential(request.headers.authorization)
  if (credential === undefined) return undefined
  const current = DEFINITIONS.exec(path)
  if (current !== null) {
    const endpoint = current[1] === undefined ? flagDefinitions.endpoints.localEvaluation : flagDefinitions.endpoints.definitions
    return { _tag: "Definitions", project: undefined, template: endpoint.path, query: query(), credential }
  }
  const scoped = PROJECT_DEFINITIONS.exec(path)
  if (scoped === null) return undefined
  const template = flagDefinitions.endpoints.projectLocalEvaluation.path
  return { _tag: "Definitions", project: scoped[1], template, query: query(), credential }
}

/** A query parameter as the contract decodes it (`QueryText`): the last of its values. */
export const lastValue = (query: URLSearchParams, name: string): string | undefined => query.getAll(name).at(-1)
