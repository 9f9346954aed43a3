import { fillPath, type Options, type QueryValues, queryString, request } from "./client.ts"
import type { PathOf, Success } from "./contract.ts"
import { invalidateWith, type Resource, useResource } from "./resources.ts"

/** The key a read is kept under: the URL it asks. */
export const urlOf = (path: string, options: { readonly params?: unknown; readonly query?: unknown }) =>
  fillPath(path, options.params as Record<string, string> | undefined) + queryString(options.query as QueryValues | undefined)

/** A GET the contract declares, read through the shared resources; `null` options read nothing yet. */
export const useApi = <P extends PathOf<"GET">>(path: P, options: Options<"GET", P> | null): Resource<Success<"GET", P>> =>
  useResource(
    options === null ? null : urlOf(path, options),
    () => (request as (method: "GET", path: P, options: Options<"GET", P>) => Promise<Success<"GET", P>>)("GET", path, options!)
  )

/**
 * Reads `path` again and keeps the answer under its key, forgetting the rest of what `prefix` names: after
 * a write, its readers see the new data with no loading state in between, so nothing on the page is
 * unmounted (what a person typed, where the keyboard is).
 */
export const reread = <P extends PathOf<"GET">>(prefix: string, path: P, options: Options<"GET", P>): Promise<void> =>
  (request as (method: "GET", path: P, options: Options<"GET", P>) => Promise<Success<"GET", P>>)("GET", path, options).then(
    (data) => invalidateWith(prefix, urlOf(path, options), data)
  )
