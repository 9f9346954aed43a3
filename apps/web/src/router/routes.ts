import { SIGN_IN_LINK_PATH } from "@hedgerow/core/sign-in-link"
import { queryString } from "../api/client.ts"
import { asTwoFactorRefusal, type TwoFactorRefusal } from "../api/two-factor-refusals.ts"

/**
 * The console's pages and their URLs. A page's whole state is in its URL (path and query), so a reload
 * or a shared link shows the same view. No page lives under a path the API serves (/api, /flags,
 * /decide, /_health): the server answers those itself.
 */
export type Route =
  | { readonly page: "home" }
  /** `failure`: how an SSO log-in that came back here ended, when it did not log the person in. */
  | { readonly page: "login"; readonly next: string | undefined; readonly failure?: LoginFailure | undefined }
  /** Where a one-time sign-in link lands; its secret is in the fragment, which the route never holds. */
  | { readonly page: "signInLink" }
  | { readonly page: "organization"; readonly organizationId: string; readonly pageNumber: number }
  | { readonly page: "members"; readonly organizationId: string; readonly pageNumber: number }
  | { readonly page: "invites"; readonly organizationId: string; readonly pageNumber: number }
  /** Accepting an invite, the link its e-mail carries: no session needed. */
  | { readonly page: "signup"; readonly inviteId: string }
  | { readonly page: "domains"; readonly organizationId: string; readonly pageNumber: number }
  | { readonly page: "batchExports"; readonly organizationId: string; readonly pageNumber: number }
  | { readonly page: "roles"; readonly organizationId: string; readonly pageNumber: number }
  | { readonly page: "project"; readonly projectId: string }
  | { readonly page: "flags"; readonly projectId: string; readonly list: FlagList }
  | { readonly page: "newFlag"; readonly projectId: string }
  /** The project's deleted flags (the archive), searched by key or name. */
  | { readonly page: "deletedFlags"; readonly projectId: string; readonly search: string; readonly pageNumber: number }
  | {
    readonly page: "flag"
    readonly projectId: string
    readonly flagId: string
    readonly tab: FlagTab
    /** The activity or role access tab's page. */
    readonly pageNumber: number
  }
  /** Every flag's activity in the project, newest first, a page at a time. */
  | { readonly page: "flagActivity"; readonly projectId: string; readonly pageNumber: number }
  | { readonly page: "cohorts"; readonly projectId: string; readonly search: string; readonly pageNumber: number }
  | { readonly page: "newCohort"; readonly projectId: string }
  | {
    readonly page: "cohort"
    readonly projectId: string
    readonly cohortId: string
    readonly tab: CohortTab
    /** The persons or activity tab's page. */
    readonly pageNumber: number
  }
  | { readonly page: "groupTypes"; readonly projectId: string }
  | { readonly page: "webhooks"; readonly projectId: string; readonly pageNumber: number }
  /** `pageNumber`: the page of its deliveries. */
  | { readonly page: "webhook"; readonly projectId: string; readonly webhookId: string; readonly pageNumber: number }
  | { readonly page: "personalApiKeys" }
  | { readonly page: "newPersonalApiKey" }
  | { readonly page: "personalApiKey"; readonly keyId: string }
  /** `required`: the organization's two-factor rule sent the person here, and what it asks of them. */
  | { readonly page: "twoFactor"; readonly required?: TwoFactorRefusal | undefined }
  /** Approving a `hedgerow login --browser`: the code its link carries, or none when typed by hand. */
  | { readonly page: "cliAuthorize"; readonly code: string }
  | { readonly page: "notFound" }

/** The server's `error_code` for a refused SSO log-in (PostHog's codes), and `error_detail` when it gives one. */
export interface LoginFailure {
  readonly code: string
  readonly detail: string | undefined
}

const failureOf = (search: URLSearchParams): LoginFailure | undefined => {
  const code = search.get("error_code")
  return code === null || code === "" ? undefined : { code, detail: search.get("error_detail") ?? undefined }
}

/** The flag list's filters, by the API's parameter names (`tags` repeats), and its page. */
export interface FlagList {
  readonly search: string
  readonly type: string
  readonly active: string
  readonly tags: ReadonlyArray<string>
  readonly created_by_id: string
  /** The API's `order`: a field, `-` before it for descending; empty for the API's default (newest first). */
  readonly order: string
  readonly pageNumber: number
}

/** The list unfiltered, at its first page. */
export const ALL_FLAGS: FlagList = { search: "", type: "", active: "", tags: [], created_by_id: "", order: "", pageNumber: 1 }

export const FLAG_TABS = ["settings", "activity", "evaluate", "access", "usage", "code"] as const
export type FlagTab = (typeof FLAG_TABS)[number]

const flagListOf = (search: URLSearchParams): FlagList => ({
  search: search.get("search") ?? "",
  type: search.get("type") ?? "",
  active: search.get("active") ?? "",
  tags: search.getAll("tags").filter((tag) => tag !== ""),
  created_by_id: search.get("created_by_id") ?? "",
  order: search.get("order") ?? "",
  pageNumber: pageNumberOf(search)
})

const flagListQuery = (list: FlagList): string => {
  const search = new URLSearchParams()
  for (const name of ["search", "type", "active"] as const) if (list[name] !== "") search.set(name, list[name])
  for (const tag of list.tags) search.append("tags", tag)
  if (list.created_by_id !== "") search.set("created_by_id", list.created_by_id)
  if (list.order !== "") search.set("order", list.order)
  if (list.pageNumber > 1) search.set("page", String(list.pageNumber))
  const text = search.toString()
  return text === "" ? "" : `?${text}`
}

export const COHORT_TABS = ["settings", "persons", "activity"] as const
export type CohortTab = (typeof COHORT_TABS)[number]

/** A project's cohorts, group types and webhooks: `rest` is the path after `/project/<id>/`. */
const projectResourceRoute = (projectId: string, rest: ReadonlyArray<string>, search: URLSearchParams): Route | undefined => {
  const [section, id, ...more] = rest
  if (more.length > 0) return undefined
  if (section === "cohorts") {
    if (id === undefined) return { page: "cohorts", projectId, search: search.get("search") ?? "", pageNumber: pageNumberOf(search) }
    if (id === "new") return { page: "newCohort", projectId }
    const tab = COHORT_TABS.find((name) => name === search.get("tab")) ?? "settings"
    return { page: "cohort", projectId, cohortId: id, tab, pageNumber: tab === "settings" ? 1 : pageNumberOf(search) }
  }
  if (section === "group-types" && id === undefined) return { page: "groupTypes", projectId }
  if (section === "webhooks") {
    if (id === undefined) return { page: "webhooks", projectId, pageNumber: pageNumberOf(search) }
    return { page: "webhook", projectId, webhookId: id, pageNumber: pageNumberOf(search) }
  }
  return undefined
}

const cohortsQuery = (search: string, pageNumber: number): string => {
  const query = new URLSearchParams()
  if (search !== "") query.set("search", search)
  if (pageNumber > 1) query.set("page", String(pageNumber))
  const text = query.toString()
  return text === "" ? "" : `?${text}`
}

const cohortQuery = (tab: CohortTab, pageNumber: number): string =>
  tab === "settings" ? "" : `?tab=${tab}${pageNumber > 1 ? `&page=${pageNumber}` : ""}`

/** The flag's tabs that hold a list, a page at a time. */
const isPaged = (tab: FlagTab): boolean => tab === "activity" || tab === "access"

const flagQuery = (tab: FlagTab, pageNumber: number): string =>
  tab === "settings" ? "" : `?tab=${tab}${isPaged(tab) && pageNumber > 1 ? `&page=${pageNumber}` : ""}`

/** A page number from the query: a whole number from 1, else 1. */
const pageNumberOf = (search: URLSearchParams): number => {
  const value = Number(search.get("page"))
  return Number.isSafeInteger(value) && value >= 1 ? value : 1
}

const pageQuery = (pageNumber: number): string => pageNumber > 1 ? `?page=${pageNumber}` : ""

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
  if (first === "login" && id === undefined) return { page: "login", next: safeNext(search.get("next")), failure: failureOf(search) }
  if (`/${first}` === SIGN_IN_LINK_PATH && id === undefined) return { page: "signInLink" }
  if (first === "organization" && id !== undefined && rest.length === 0) {
    return { page: "organization", organizationId: id, pageNumber: pageNumberOf(search) }
  }
  if (first === "organization" && id !== undefined && rest.length === 1 && (rest[0] === "members" || rest[0] === "invites")) {
    return { page: rest[0], organizationId: id, pageNumber: pageNumberOf(search) }
  }
  if (first === "signup" && id !== undefined && rest.length === 0) return { page: "signup", inviteId: id }
  if (first === "organization" && id !== undefined && rest.length === 1) {
    if (rest[0] === "domains") return { page: "domains", organizationId: id, pageNumber: pageNumberOf(search) }
    if (rest[0] === "batch-exports") return { page: "batchExports", organizationId: id, pageNumber: pageNumberOf(search) }
    if (rest[0] === "roles") return { page: "roles", organizationId: id, pageNumber: pageNumberOf(search) }
  }
  if (first === "project" && id !== undefined && rest.length === 0) return { page: "project", projectId: id }
  if (first === "project" && id !== undefined && rest.length === 1 && rest[0] === "flag-activity") {
    return { page: "flagActivity", projectId: id, pageNumber: pageNumberOf(search) }
  }
  if (first === "project" && id !== undefined && rest[0] === "flags") {
    const [, flagId, ...more] = rest
    if (flagId === undefined) return { page: "flags", projectId: id, list: flagListOf(search) }
    if (more.length > 0) return { page: "notFound" }
    if (flagId === "new") return { page: "newFlag", projectId: id }
    if (flagId === "deleted") return { page: "deletedFlags", projectId: id, search: search.get("search") ?? "", pageNumber: pageNumberOf(search) }
    const tab = FLAG_TABS.find((name) => name === search.get("tab")) ?? "settings"
    return { page: "flag", projectId: id, flagId, tab, pageNumber: isPaged(tab) ? pageNumberOf(search) : 1 }
  }
  if (first === "project" && id !== undefined && rest.length > 0) {
    const route = projectResourceRoute(id, rest, search)
    if (route !== undefined) return route
  }
  if (first === "settings" && id === "two-factor" && rest.length === 0) {
    const required = asTwoFactorRefusal(search.get("required"))
    return required === undefined ? { page: "twoFactor" } : { page: "twoFactor", required }
  }
  // The user's own keys, not an organization's: under the user's settings.
  if (first === "settings" && id === "personal-api-keys") {
    const [keyId, ...more] = rest
    if (keyId === undefined) return { page: "personalApiKeys" }
    if (more.length > 0) return { page: "notFound" }
    return keyId === "new" ? { page: "newPersonalApiKey" } : { page: "personalApiKey", keyId }
  }
  if (first === "cli" && id === "authorize" && rest.length === 0) return { page: "cliAuthorize", code: search.get("code") ?? "" }
  return { page: "notFound" }
}

export const hrefOf = (route: Exclude<Route, { page: "notFound" }>): string => {
  switch (route.page) {
    case "home":
      return "/"
    case "login":
      return `/login${queryString({ next: route.next, error_code: route.failure?.code, error_detail: route.failure?.detail })}`
    case "signInLink":
      return SIGN_IN_LINK_PATH
    case "organization":
      return `/organization/${encodeURIComponent(route.organizationId)}${route.pageNumber > 1 ? `?page=${route.pageNumber}` : ""}`
    case "members":
    case "invites":
      return `/organization/${encodeURIComponent(route.organizationId)}/${route.page}${route.pageNumber > 1 ? `?page=${route.pageNumber}` : ""}`
    case "signup":
      return `/signup/${encodeURIComponent(route.inviteId)}`
    case "domains":
      return `/organization/${encodeURIComponent(route.organizationId)}/domains${pageQuery(route.pageNumber)}`
    case "batchExports":
      return `/organization/${encodeURIComponent(route.organizationId)}/batch-exports${pageQuery(route.pageNumber)}`
    case "roles":
      return `/organization/${encodeURIComponent(route.organizationId)}/roles${pageQuery(route.pageNumber)}`
    case "project":
      return `/project/${encodeURIComponent(route.projectId)}`
    case "flags":
      return `/project/${encodeURIComponent(route.projectId)}/flags${flagListQuery(route.list)}`
    case "newFlag":
      return `/project/${encodeURIComponent(route.projectId)}/flags/new`
    case "deletedFlags":
      return `/project/${encodeURIComponent(route.projectId)}/flags/deleted${queryString({ search: route.search, page: route.pageNumber > 1 ? String(route.pageNumber) : undefined })}`
    case "flag":
      return `/project/${encodeURIComponent(route.projectId)}/flags/${encodeURIComponent(route.flagId)}${flagQuery(route.tab, route.pageNumber)}`
    case "flagActivity":
      return `/project/${encodeURIComponent(route.projectId)}/flag-activity${pageQuery(route.pageNumber)}`
    case "cohorts":
      return `/project/${encodeURIComponent(route.projectId)}/cohorts${cohortsQuery(route.search, route.pageNumber)}`
    case "newCohort":
      return `/project/${encodeURIComponent(route.projectId)}/cohorts/new`
    case "cohort":
      return `/project/${encodeURIComponent(route.projectId)}/cohorts/${encodeURIComponent(route.cohortId)}${cohortQuery(route.tab, route.pageNumber)}`
    case "groupTypes":
      return `/project/${encodeURIComponent(route.projectId)}/group-types`
    case "webhooks":
      return `/project/${encodeURIComponent(route.projectId)}/webhooks${pageQuery(route.pageNumber)}`
    case "webhook":
      return `/project/${encodeURIComponent(route.projectId)}/webhooks/${encodeURIComponent(route.webhookId)}${pageQuery(route.pageNumber)}`
    case "personalApiKeys":
      return "/settings/personal-api-keys"
    case "newPersonalApiKey":
      return "/settings/personal-api-keys/new"
    case "personalApiKey":
      return `/settings/personal-api-keys/${encodeURIComponent(route.keyId)}`
    case "twoFactor":
      return route.required === undefined ? "/settings/two-factor" : `/settings/two-factor?${new URLSearchParams({ required: route.required })}`
    case "cliAuthorize":
      return route.code === "" ? "/cli/authorize" : `/cli/authorize?${new URLSearchParams({ code: route.code })}`
  }
}
