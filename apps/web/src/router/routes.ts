/**
 * The console's pages and their URLs. A page's whole state is in its URL (path and query), so a reload
 * or a shared link shows the same view. No page lives under a path the API serves (/api, /flags,
 * /decide, /_health): the server answers those itself.
 */
export type Route =
  | { readonly page: "home" }
  | { readonly page: "login"; readonly next: string | undefined }
  | { readonly page: "organization"; readonly organizationId: string; readonly pageNumber: number }
  | { readonly page: "project"; readonly projectId: string }
  | { readonly page: "notFound" }

/** A page number from the query: a whole number from 1, else 1. */
const pageNumberOf = (search: URLSearchParams): number => {
  const value = Number(search.get("page"))
  return Number.isSafeInteger(value) && value >= 1 ? value : 1
}

/** Where a log-in may send the browser on: a path of this site only, never another origin. */
export const safeNext = (next: string | null | undefined): string | undefined =>
  next !== null && next !== undefined && next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\")
    ? next
    : undefined

const segmentsOf = (pathname: string): Array<string> | undefined => {
  try {
    return pathname.split("/").filter((segment) => segment !== "").map(decodeURIComponent)
  } catch {
    return undefined
  }
}

export const parseRoute = (pathname: string, query: string): Route => {
  const search = new URLSearchParams(query)
  const segments = segmentsOf(pathname)
  if (segments === undefined) return { page: "notFound" }
  const [first, id, ...rest] = segments
  if (first === undefined) return { page: "home" }
  if (first === "login" && id === undefined) return { page: "login", next: safeNext(search.get("next")) }
  if (first === "organization" && id !== undefined && rest.length === 0) {
    return { page: "organization", organizationId: id, pageNumber: pageNumberOf(search) }
  }
  if (first === "project" && id !== undefined && rest.length === 0) return { page: "project", projectId: id }
  return { page: "notFound" }
}

export const hrefOf = (route: Exclude<Route, { page: "notFound" }>): string => {
  switch (route.page) {
    case "home":
      return "/"
    case "login":
      return route.next === undefined ? "/login" : `/login?${new URLSearchParams({ next: route.next })}`
    case "organization":
      return `/organization/${encodeURIComponent(route.organizationId)}${route.pageNumber > 1 ? `?page=${route.pageNumber}` : ""}`
    case "project":
      return `/project/${encodeURIComponent(route.projectId)}`
  }
}
