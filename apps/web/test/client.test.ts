import { describe, expect, it } from "vitest"
import { fillPath, queryString } from "../src/api/client.ts"
import { cookieValue, csrfHeaders } from "../src/api/csrf.ts"
import { hrefOf, parseRoute, type Route, safeNext } from "../src/router/routes.ts"

describe("the API client's requests", () => {
  it("fill a contract path's parameters, escaped, and refuse a missing one", () => {
    expect(fillPath("/api/organizations/:organization_id/projects/:id/", { organization_id: "a b/c", id: 7 }))
      .toBe("/api/organizations/a%20b%2Fc/projects/7/")
    expect(fillPath("/api/users/@me/")).toBe("/api/users/@me/")
    expect(() => fillPath("/api/projects/:project_id/", {})).toThrow("missing path parameter project_id")
  })

  it("carry a query without its unset or empty values, a list as the name repeated", () => {
    expect(queryString({ limit: "20", offset: undefined, search: "", active: null, tags: ["a", "b&c"] })).toBe("?limit=20&tags=a&tags=b%26c")
    expect(queryString({})).toBe("")
    expect(queryString()).toBe("")
  })

  it("echo the CSRF cookie in X-CSRFToken on unsafe methods only", () => {
    const cookies = "theme=dark; posthog_csrftoken=AbC123xyz; other=1"
    expect(cookieValue(cookies, "posthog_csrftoken")).toBe("AbC123xyz")
    expect(cookieValue(cookies, "csrftoken")).toBeUndefined()
    for (const method of ["POST", "PATCH", "PUT", "DELETE", "post"]) expect(csrfHeaders(method, cookies)).toEqual({ "X-CSRFToken": "AbC123xyz" })
    for (const method of ["GET", "HEAD", "OPTIONS"]) expect(csrfHeaders(method, cookies)).toEqual({})
    expect(csrfHeaders("POST", "theme=dark")).toEqual({})
    expect(csrfHeaders("POST", "")).toEqual({})
  })
})

describe("the console's URLs", () => {
  it("name every page, and each page's URL names it back", () => {
    const routes: Array<Exclude<Route, { page: "notFound" }>> = [
      { page: "home" },
      { page: "login", next: undefined },
      { page: "login", next: "/project/7?tab=x" },
      { page: "organization", organizationId: "0190-ab", pageNumber: 1 },
      { page: "organization", organizationId: "a/b c", pageNumber: 3 },
      { page: "project", projectId: "7" },
      { page: "flag", projectId: "7", flagId: "3", tab: "settings", pageNumber: 1 },
      { page: "flag", projectId: "7", flagId: "3", tab: "access", pageNumber: 2 },
      { page: "flag", projectId: "7", flagId: "3", tab: "evaluate", pageNumber: 1 },
      { page: "members", organizationId: "0190-ab", pageNumber: 1 },
      { page: "members", organizationId: "0190-ab", pageNumber: 2 },
      { page: "invites", organizationId: "a/b c", pageNumber: 4 },
      { page: "signup", inviteId: "0190-ab-cd" }
    ]
    for (const route of routes) {
      const url = new URL(hrefOf(route), "http://console.test")
      expect(parseRoute(url.pathname, url.search)).toEqual(route)
    }
  })

  it("read a bad page number as the first page, trailing slashes as none, and anything else as no page", () => {
    expect(parseRoute("/organization/x", "?page=0")).toEqual({ page: "organization", organizationId: "x", pageNumber: 1 })
    expect(parseRoute("/organization/x/", "?page=two")).toEqual({ page: "organization", organizationId: "x", pageNumber: 1 })
    expect(parseRoute("/project/7/", "")).toEqual({ page: "project", projectId: "7" })
    for (const path of ["/project", "/project/7/extra", "/flags", "/login/more", "/%E0%A4%A", "/organization/x/other", "/signup", "/signup/x/more"]) {
      expect(parseRoute(path, ""), path).toEqual({ page: "notFound" })
    }
  })

  it("name a project's cohorts, group types and webhooks, each URL naming its page back", () => {
    const routes: Array<Exclude<Route, { page: "notFound" }>> = [
      { page: "cohorts", projectId: "7", search: "", pageNumber: 1 },
      { page: "cohorts", projectId: "7", search: "beta & co", pageNumber: 3 },
      { page: "newCohort", projectId: "7" },
      { page: "cohort", projectId: "7", cohortId: "12", tab: "settings", pageNumber: 1 },
      { page: "cohort", projectId: "7", cohortId: "12", tab: "persons", pageNumber: 2 },
      { page: "cohort", projectId: "7", cohortId: "12", tab: "activity", pageNumber: 1 },
      { page: "groupTypes", projectId: "7" },
      { page: "webhooks", projectId: "7", pageNumber: 2 },
      { page: "webhook", projectId: "7", webhookId: "0190-ab", pageNumber: 1 },
      { page: "webhook", projectId: "7", webhookId: "0190-ab", pageNumber: 5 }
    ]
    for (const route of routes) {
      const url = new URL(hrefOf(route), "http://console.test")
      expect(parseRoute(url.pathname, url.search)).toEqual(route)
    }
    expect(hrefOf({ page: "cohorts", projectId: "7", search: "beta", pageNumber: 2 })).toBe("/project/7/cohorts?search=beta&page=2")
    // An unknown tab is the settings; the settings have no pages.
    expect(parseRoute("/project/7/cohorts/12", "?tab=nope&page=3")).toEqual({ page: "cohort", projectId: "7", cohortId: "12", tab: "settings", pageNumber: 1 })
    for (const path of ["/project/7/cohorts/12/more", "/project/7/group-types/0", "/project/7/webhooks/x/deliveries", "/project/7/other"]) {
      expect(parseRoute(path, ""), path).toEqual({ page: "notFound" })
    }
  })

  it("send a log-in on only to a path of this site", () => {
    expect(safeNext("/project/7")).toBe("/project/7")
    for (const next of ["https://evil.test/", "//evil.test/x", "/\\evil.test", "project/7", "", null, undefined]) {
      expect(safeNext(next), String(next)).toBeUndefined()
    }
    expect(parseRoute("/login", "?next=//evil.test")).toEqual({ page: "login", next: undefined })
  })
})
