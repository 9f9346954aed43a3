import type { PageRequest } from "@hedgerow/core"
import { Effect } from "effect"
import type { SqlError } from "effect/sql"

/**
 * The rows of one page and the number of rows behind all pages. A page that is not empty yet shorter
 * than its limit is the last one, so the total is its offset plus its length and the count query is
 * skipped; that is the usual answer for a search or a small list. Only a full page, or an empty one past
 * the start, asks for the count.
 */
export const pageAndTotal = <Row>(
  page: { readonly limit: number; readonly offset: number },
  rows: Effect.Effect<ReadonlyArray<Row>, SqlError.SqlError>,
  count: Effect.Effect<ReadonlyArray<{ readonly n: number }>, SqlError.SqlError>
): Effect.Effect<{ readonly rows: ReadonlyArray<Row>; readonly total: number }> =>
  Effect.gen(function*() {
    const found = yield* rows
    const lastPage = found.length < page.limit && (found.length > 0 || page.offset === 0)
    const total = lastPage ? page.offset + found.length : (yield* count)[0]?.n ?? 0
    return { rows: found, total }
  }).pipe(Effect.orDie)

/** A page of `pageAndTotal`'s rows, decoded, in the shape core's lists take. */
export const decodedPage = <A>(decode: (rows: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<A>>, request: PageRequest) =>
({ rows, total }: { readonly rows: ReadonlyArray<unknown>; readonly total: number }) =>
  Effect.map(decode(rows), (results) => ({ count: total, results, request }))
