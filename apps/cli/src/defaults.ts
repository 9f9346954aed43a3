/**
 * Values of the API and of the store that the command definitions show in `--help` and use as flag
 * defaults. They are repeated here so that defining the commands loads neither core nor the store
 * (`--help` stays fast); test/defaults.test.ts checks each against its source.
 */

/** The API's alias for the key holder's current organization or project. */
export const CURRENT = "@current"
/** The API's alias for the caller, in member paths. */
export const ME = "@me"
/** Invites one bulk request may carry. */
export const MAX_BULK_INVITES = 20
/** Connections to PostgreSQL per process when none is configured. */
export const DEFAULT_POOL_SIZE = 10
/** Connections to PostgreSQL a process needs at least: one listens for changes. */
export const MIN_POOL_SIZE = 2
