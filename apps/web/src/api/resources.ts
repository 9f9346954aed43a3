import { useSyncExternalStore } from "react"
import { type ApiError, asApiError } from "./client.ts"
import { type TwoFactorRefusal, twoFactorRefusalOf } from "./two-factor-refusals.ts"

/**
 * What the pages read from the API, kept by key (the request's URL) so that a page and the shell asking
 * for the same thing share one request, until `invalidate` makes the next reader ask again.
 */
export type Resource<T> =
  | { readonly status: "loading" }
  | { readonly status: "ready"; readonly data: T }
  | { readonly status: "failed"; readonly error: ApiError }

const LOADING: Resource<never> = { status: "loading" }

interface Entry {
  state: Resource<unknown>
}

const entries = new Map<string, Entry>()
const listeners = new Set<() => void>()
const notify = () => {
  for (const listener of listeners) listener()
}
const subscribe = (listener: () => void) => {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** Called when the API answers a read with one of those refusals. */
let twoFactorRequired: (refusal: TwoFactorRefusal) => void = () => {}
export const onTwoFactorRequired = (handler: (refusal: TwoFactorRefusal) => void) => {
  twoFactorRequired = handler
}

const start = (key: string, load: () => Promise<unknown>): Entry => {
  const entry: Entry = { state: LOADING }
  entries.set(key, entry)
  load().then(
    (data) => {
      entry.state = { status: "ready", data }
    },
    (cause: unknown) => {
      entry.state = { status: "failed", error: asApiError(cause) }
      const { status, code } = entry.state.error
      const refusal = status === 403 ? twoFactorRefusalOf(code) : undefined
      if (refusal !== undefined) twoFactorRequired(refusal)
    }
  ).finally(() => {
    if (entries.get(key) === entry) notify()
  })
  return entry
}

/**
 * The resource `key` names, loading it with `load` the first time it is read; `null` reads nothing
 * (what it needs is not known yet) and stays loading.
 */
export const useResource = <T>(key: string | null, load: () => Promise<T>): Resource<T> =>
  useSyncExternalStore(subscribe, () => {
    if (key === null) return LOADING
    return (entries.get(key) ?? start(key, load)).state as Resource<T>
  })

/** Forgets the resources whose key starts with `prefix` (all of them without one): their readers load them again. */
export const invalidate = (prefix = "") => {
  for (const key of [...entries.keys()]) if (key.startsWith(prefix)) entries.delete(key)
  notify()
}

/** Forgets the resources that failed: their readers ask again (after the session was let through, say). */
export const invalidateFailed = () => {
  for (const [key, entry] of [...entries]) if (entry.state.status === "failed") entries.delete(key)
  notify()
}

/** Forgets what `prefix` names, as `invalidate` does, but keeps `key` as `data`: what a write answered it holds now. */
export const invalidateWith = (prefix: string, key: string, data: unknown) => {
  for (const stale of [...entries.keys()]) if (stale.startsWith(prefix)) entries.delete(stale)
  entries.set(key, { state: { status: "ready", data } })
  notify()
}
