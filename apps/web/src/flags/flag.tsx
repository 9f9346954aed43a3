import type { Success } from "../api/contract.ts"

/** A flag as the API answers it. */
export type Flag = Success<"GET", "/api/projects/:project_id/feature_flags/:id/">

export const FLAGS_PATH = "/api/projects/:project_id/feature_flags/"
export const FLAG_PATH = "/api/projects/:project_id/feature_flags/:id/"

/** The prefix of every read of a project's flags (list, flag, activity): what a write to one makes stale. */
export const flagsPrefix = (projectId: string) => `/api/projects/${encodeURIComponent(projectId)}/feature_flags/`

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** The status the API computed, in words. */
export const STATUS_WORDS: Record<Flag["status"], string> = {
  ACTIVE: "Active",
  STALE: "Stale",
  INACTIVE: "Inactive",
  DELETED: "Deleted"
}

export const StatusBadge = ({ status }: { readonly status: Flag["status"] }) => (
  <span className={`badge badge-${status.toLowerCase()}`}>{STATUS_WORDS[status]}</span>
)
