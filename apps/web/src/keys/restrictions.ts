import type { Success } from "../api/contract.ts"
import { useApi } from "../api/use-api.ts"
import type { Me } from "../shell/me.ts"

export type Project = Success<"GET", "/api/projects/">["results"][number]

/** The most projects the API lists at once: all of them, for the picker and for naming restrictions. */
const LISTED_PROJECTS = 1000

/** Every project the user can see, across their organizations (shared with any other reader of the same list). */
export const useProjects = () => useApi("/api/projects/", { query: { limit: String(LISTED_PROJECTS) } })

/** What a key may reach: everything its user can, or only some organizations, or only some projects. */
export interface Restriction {
  readonly mode: "all" | "organizations" | "projects"
  readonly organizations: ReadonlyArray<string>
  readonly projects: ReadonlyArray<number>
}

export const UNRESTRICTED: Restriction = { mode: "all", organizations: [], projects: [] }

/** A key's restriction lists (`[]`: none) as the picker shows them; projects first, as they are the narrower. */
export const restrictionOf = (key: { readonly scoped_organizations: ReadonlyArray<string>; readonly scoped_teams: ReadonlyArray<number> }): Restriction => ({
  mode: key.scoped_teams.length > 0 ? "projects" : key.scoped_organizations.length > 0 ? "organizations" : "all",
  organizations: key.scoped_organizations,
  projects: key.scoped_teams
})

/** The lists the API takes for a restriction: the chosen one, the other empty. */
export const restrictionFields = (restriction: Restriction) => ({
  scoped_organizations: restriction.mode === "organizations" ? [...restriction.organizations] : [],
  scoped_teams: restriction.mode === "projects" ? [...restriction.projects] : []
})

/** A key's restrictions in words: names where the user's organizations and projects say them, else ids. */
export const restrictionSummary = (
  key: { readonly scoped_organizations: ReadonlyArray<string>; readonly scoped_teams: ReadonlyArray<number> },
  me: Me,
  projects: ReadonlyArray<Project> | undefined
): string => {
  const parts: Array<string> = []
  if (key.scoped_organizations.length > 0) {
    const names = key.scoped_organizations.map((id) => me.organizations.find((organization) => organization.id === id)?.name ?? id)
    parts.push(`Organizations: ${names.join(", ")}`)
  }
  if (key.scoped_teams.length > 0) {
    const names = key.scoped_teams.map((id) => projects?.find((project) => project.id === id)?.name ?? `project ${id}`)
    parts.push(`Projects: ${names.join(", ")}`)
  }
  return parts.length === 0 ? "All organizations and projects" : parts.join("; ")
}
