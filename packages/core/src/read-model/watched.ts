/**
 * The names whose changes the read model hears of on the store's change feed: each a stored table, except
 * `feature_flag_usage`, which names flags' `last_called_at` alone (see FLAG_USAGE_CHANGES). Memory built
 * from a table is only safe while every write to it is heard, so the store's tests hold this list against
 * the database's notify triggers, and against READS: each name here is read by some cache.
 */
export const WATCHED_TABLES = [
  "users",
  "personal_api_keys",
  "memberships",
  "sessions",
  "organizations",
  "two_factor_devices",
  "projects",
  "feature_flags",
  "feature_flag_usage",
  "cohorts",
  "cohort_members",
  "group_types"
] as const

export type WatchedTable = (typeof WATCHED_TABLES)[number]

/**
 * What each part of the read model holds in memory is made of: a committed change to any of its tables
 * drops what it holds, or brings it up to date. Every cache names its tables from here, so together these
 * are all that the read model serves from memory.
 */
export const READS = {
  /** A personal API key with its user and the user's memberships: everything authentication needs. */
  keyHolder: ["personal_api_keys", "users", "memberships"],
  /**
   * A session with its user, the user's memberships and their two-factor standing: a log-out, a changed
   * password, a removed membership, an organization's two-factor rule or an app turned on or off changes
   * one of these.
   */
  sessionHolder: ["sessions", "users", "memberships", "organizations", "two_factor_devices"],
  /** A project, found by its id or by its token. */
  project: ["projects"],
  /** A stored flag, which carries its creator's and last modifier's names. */
  flag: ["feature_flags", "users"],
  /** The table whose changed rows a project's live flags read again, one flag at a time. */
  liveFlagRows: "feature_flags",
  /** What makes a project's live flags be read whole again: flags carry their creator's name. */
  liveFlagNames: ["users"],
  /** What makes the projects whose live flags are held be looked for again, so removed ones are let go. */
  heldProjects: ["projects"],
  /** When each of a project's flags was last called. */
  flagUsage: ["feature_flag_usage"],
  /** A project's group types. */
  groupTypes: ["group_types"],
  /** A project's live cohorts. */
  cohorts: ["cohorts"],
  /** The member lists of a project's short static cohorts. */
  staticCohortLists: ["cohorts", "cohort_members"]
} as const satisfies Record<string, WatchedTable | ReadonlyArray<WatchedTable>>
