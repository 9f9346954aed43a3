/** Row helpers shared by the repositories. */
import { Effect, Option } from "effect"
import { type SqlClient, SqlError, type Statement } from "effect/sql"

/** JSON parameters are sent as text and cast, which both PGlite and node-postgres style drivers accept. */
export const json = (value: unknown): string => JSON.stringify(value ?? null)

/** Ids a serial column can hold; any other id simply matches no row. */
export const serialIds = (ids: ReadonlyArray<number>): ReadonlyArray<number> =>
  ids.filter((id) => Number.isInteger(id) && id > 0 && id <= 2_147_483_647)

/** A unique constraint refused the write: the typed conflict a repository answers instead of a defect. */
export const isUniqueViolation = (error: unknown): boolean => SqlError.isSqlError(error) && error.reason._tag === "UniqueViolation"

/**
 * What ends a read that locks the rows it finds until its transaction ends, when the caller asks for it:
 * two writers of one row then take turns, the second reading what the first wrote.
 */
export const rowLock = (sql: SqlClient.SqlClient, options: { readonly forUpdate?: boolean } | undefined): Statement.Fragment =>
  sql.literal(options?.forUpdate === true ? "FOR UPDATE" : "")

/** Whether the caller runs inside a transaction of `sql`. */
export const inTransaction = (sql: SqlClient.SqlClient) => Effect.map(Effect.serviceOption(sql.transactionService), Option.isSome)
