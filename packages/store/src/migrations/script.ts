import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Runs a migration script one statement at a time, as a PostgreSQL server takes one statement per
 * extended-protocol query. Statements end with `;` at the end of a line, so a function body keeps its
 * own semicolons off line ends.
 */
export const runScript = (script: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const statements = script.split(/;[ \t]*(?:\r?\n|$)/).map((text) => text.trim()).filter((text) => text !== "")
    for (const statement of statements) yield* sql.unsafe(statement).unprepared
  })
