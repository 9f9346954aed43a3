import type { ReactNode } from "react"
import type { ApiError } from "../api/client.ts"
import type { Resource } from "../api/resources.ts"
import { Alert } from "./alert.tsx"

/** Announced politely to screen readers; shown while a request is out. */
export const Loading = ({ label = "Loading…" }: { readonly label?: string }) => (
  <p role="status" className="state state-loading">{label}</p>
)

/** A list or page with nothing in it yet, saying so, and what to do about it when there is something. */
export const Empty = ({ title, children }: { readonly title: string; readonly children?: ReactNode }) => (
  <div className="state state-empty">
    <p className="state-title">{title}</p>
    {children}
  </div>
)

/** What the API answered, in its words, with a way to ask again; it takes the focus (ui/alert.tsx). */
export const Failed = ({ error, onRetry }: { readonly error: ApiError; readonly onRetry?: (() => void) | undefined }) => (
  <Alert className="state state-error">
    <p className="state-title">{error.status === 404 ? "Not found." : "Something went wrong."}</p>
    {error.status === 404 ? null : <p>{error.detail}</p>}
    {onRetry === undefined ? null : <button type="button" onClick={onRetry}>Try again</button>}
  </Alert>
)

/** A resource's three states: loading, failed (with a retry), or its data handed to `children`. */
export const Resourceful = <T,>({ resource, onRetry, children }: {
  readonly resource: Resource<T>
  readonly onRetry?: (() => void) | undefined
  readonly children: (data: T) => ReactNode
}) => {
  switch (resource.status) {
    case "loading":
      return <Loading />
    case "failed":
      return <Failed error={resource.error} onRetry={onRetry} />
    case "ready":
      return children(resource.data)
  }
}
