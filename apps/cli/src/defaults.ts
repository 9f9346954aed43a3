/**
 * Values of the API, the server and the store that the command definitions show in `--help` and use as
 * flag defaults and batch sizes. They are repeated here so that defining the commands loads neither core,
 * the server nor the store (`--help` stays fast); test/defaults.test.ts checks each against its source.
 */

/** The API's alias for the key holder's current organization or project. */
export const CURRENT = "@current"
/** The API's alias for the caller, in member paths. */
export const ME = "@me"
/** Invites one bulk request may carry. */
export const MAX_BULK_INVITES = 20
/** Distinct ids one request may add to a static cohort. */
export const MAX_ADDED_AT_ONCE = 1000
/** Distinct ids one CSV upload may add to a static cohort. */
export const MAX_MEMBERS_PER_REQUEST = 100_000
/** The largest form (a CSV upload) the server reads, in bytes. */
export const MAX_FORM_BYTES = 8 * 1024 * 1024
/** Connections to PostgreSQL per process when none is configured. */
export const DEFAULT_POOL_SIZE = 10
/** Connections to PostgreSQL a process needs at least: one listens for changes. */
export const MIN_POOL_SIZE = 2
