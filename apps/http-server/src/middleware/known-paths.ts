import { Authorization, HedgerowApi } from "@hedgerow/api"
import { HttpApi } from "effect/http-api"
import { DOCS_PATH, SCHEMA_PATH } from "../api-docs/routes.ts"

/** A served path: its template, a pattern matching it and the methods it serves. */
export interface KnownPath {
  readonly template: string
  readonly pattern: RegExp
  readonly methods: ReadonlySet<string>
  /** Served without a personal API key (the SDKs' flag evaluation): a wrong method there needs none either. */
  readonly public: boolean
}

/** Each served path with the methods it serves, to tell 405 from 404 and to log a 405 by its template. */
const knownPaths: ReadonlyArray<KnownPath> = (() => {
  // The OpenAPI document and its docs page are served beside the contract's endpoints.
  const byPath = new Map<string, Set<string>>([[SCHEMA_PATH, new Set(["GET"])], [DOCS_PATH, new Set(["GET"])]])
  const publicPaths = new Set<string>()
  HttpApi.reflect(HedgerowApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, middleware }) => {
      const methods = byPath.get(endpoint.path) ?? new Set<string>()
      methods.add(endpoint.method)
      byPath.set(endpoint.path, methods)
      if (endpoint.path !== "/_health" && ![...middleware].some((service) => (service as unknown) === Authorization)) publicPaths.add(endpoint.path)
    }
  })
  return [...byPath].map(([template, methods]) => ({
    template,
    pattern: new RegExp(`^${template.replace(/\/$/, "").replace(/:[a-z_]+/g, "[^/]+")}/?$`),
    methods,
    public: publicPaths.has(template)
  }))
})()

/**
 * The served path a request URL names, whatever its method. Matched on the raw path, as the router
 * matches literal segments; a path whose escapes do not decode never reached any route either.
 */
export const knownPathOf = (url: string): KnownPath | undefined => {
  const path = url.split("?")[0]!
  try {
    decodeURIComponent(path)
  } catch {
    return undefined
  }
  return knownPaths.find((candidate) => candidate.pattern.test(path))
}

/** The first segments of the contract's paths (api, flags, decide, _health, _preflight): the API's part of the URL space. */
const apiRoots: ReadonlySet<string> = new Set(knownPaths.map((known) => known.template.split("/")[1]!))

/** Whether a request URL falls in the API's part of the URL space, served or not. */
export const isApiPath = (url: string): boolean => apiRoots.has(url.split("?")[0]!.split("/")[1] ?? "")
