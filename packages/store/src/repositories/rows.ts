/** Row helpers shared by the repositories. */

/** JSON parameters are sent as text and cast, which both PGlite and node-postgres style drivers accept. */
export const json = (value: unknown): string => JSON.stringify(value ?? null)

/** Ids a serial column can hold; any other id simply matches no row. */
export const serialIds = (ids: ReadonlyArray<number>): ReadonlyArray<number> =>
  ids.filter((id) => Number.isInteger(id) && id > 0 && id <= 2_147_483_647)
