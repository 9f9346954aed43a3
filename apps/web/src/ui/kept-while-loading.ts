import { useRef } from "react"
import type { Resource } from "../api/resources.ts"

/**
 * A resource as it was last ready, while its next read (another query of the same list) loads: the list
 * keeps its rows, and the keyboard its place in them, until the new rows are in; `loading` says that
 * they are on their way. Only within one `scope` (the project): another one's rows are never kept.
 */
export const useKeptWhileLoading = <T>(
  resource: Resource<T>,
  scope: string
): { readonly resource: Resource<T>; readonly loading: boolean } => {
  const last = useRef<{ readonly scope: string; readonly resource: Resource<T> } | undefined>(undefined)
  if (resource.status === "ready") last.current = { scope, resource }
  return resource.status === "loading" && last.current !== undefined && last.current.scope === scope
    ? { resource: last.current.resource, loading: true }
    : { resource, loading: false }
}
