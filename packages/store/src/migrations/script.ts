import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Runs a migration script one statement at a time: a PostgreSQL server takes one statement per
 * extended-protocol query (PGlite's simple protocol took the whole file). Statements end with `;` at the
 * end of a line; the scripts hold no function bodies, whose inner semicolons this would cut.
 */
export const runScript = (script: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const statements = script.split(/;[ \t]*(?:\r?\n|$)/).map((text) => text.trim()).filter((text) => text !== "")
    for (const statement of statements) yield* sql.unsafe(statement).unprepared
  })
