import { randomUUID } from "node:crypto"
import { type messages, parse, type PGlite, protocol, type Results, type RowMode } from "@electric-sql/pglite"

/**
 * Statements kept prepared at once, and the length of their texts together: past either, the one used
 * least recently is closed. What PostgreSQL keeps of a statement (its parse and query trees) grows with
 * its text and lives in memory that WebAssembly never gives back, so the texts are what is bounded, and
 * statements whose text varies with their input (a list of ids, many rows at once) make way for the
 * store's own (docs/decisions.md, "The store").
 */
const MAX_PREPARED = 256
const MAX_PREPARED_TEXT = 256 * 1024
/** A statement longer than this is parsed afresh each time, as PGlite's own `query` does, and kept nowhere. */
const MAX_STATEMENT_TEXT = 16 * 1024

/** A statement prepared on the session under `name`, with what PostgreSQL said it takes and gives. */
interface Prepared {
  readonly name: string
  /** The type of each parameter, as PostgreSQL inferred or was told. */
  readonly parameterTypes: ReadonlyArray<number>
  /** The columns of its rows, or undefined for a statement that gives none. */
  readonly columns: messages.RowDescriptionMessage | undefined
}

/**
 * The codes of a statement that can no longer run as prepared: a table it reads changed its columns
 * under it, or something dropped the session's prepared statements. It is prepared afresh once, or,
 * inside a transaction (which the failure has ended), at its next run.
 */
const STALE = new Set(["0A000", "26000"])

const joined = (parts: ReadonlyArray<Uint8Array>) => {
  const out = new Uint8Array(parts.reduce((size, part) => size + part.length, 0))
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}

/** Runs a statement as PGlite's own `query` does: parsed, planned and described afresh, kept nowhere. */
export const runUnkept = (
  db: PGlite,
  sql: string,
  values: ReadonlyArray<unknown>,
  declaredTypes: ReadonlyArray<number>,
  rowMode: RowMode
): Promise<Results<any>> => db.query<any>(sql, [...values], { paramTypes: [...declaredTypes], rowMode })

/**
 * Runs statements on one PGlite session as named prepared statements. PGlite's own `query` parses,
 * plans and describes each statement afresh in six calls into PostgreSQL; here a statement is parsed
 * and described once, and each run is one call that binds its parameters and executes it. Callers run
 * one statement at a time (the client's permit), and PGlite's query lock keeps its own statements
 * (LISTEN) from coming in between.
 */
export const preparedStatements = (db: PGlite) => {
  // In the order of last use, so the first is the one to close.
  const prepared = new Map<string, Prepared>()
  let preparedText = 0
  // Names of this client's own, should another client ever share the session.
  const prefix = `hedgerow_${randomUUID().slice(0, 8)}_`
  let serial = 0
  // Close messages for statements let go, sent ahead of the next run. Closing a statement that is
  // already gone is no error, so they are taken whether that run succeeds or not.
  let closing: Array<Uint8Array> = []
  const takeClosing = () => {
    const taken = closing
    closing = []
    return taken
  }

  const prepare = async (sql: string, key: string, declaredTypes: ReadonlyArray<number>): Promise<Prepared> => {
    const name = `${prefix}${++serial}`
    const answer = await db.execProtocolStream(
      joined([
        ...takeClosing(),
        protocol.serialize.parse({ name, text: sql, types: [...declaredTypes] }),
        protocol.serialize.describe({ type: "S", name }),
        protocol.serialize.sync()
      ]),
      { syncToFs: false }
    )
    const statement: Prepared = {
      name,
      parameterTypes: parse.parseDescribeStatementResults(answer),
      columns: answer.find((message): message is messages.RowDescriptionMessage => message.name === "rowDescription")
    }
    prepared.set(key, statement)
    preparedText += key.length
    for (const [oldest, { name: old }] of prepared) {
      if (prepared.size <= MAX_PREPARED && preparedText <= MAX_PREPARED_TEXT) break
      forget(oldest, old)
    }
    return statement
  }

  const forget = (key: string, name: string) => {
    prepared.delete(key)
    preparedText -= key.length
    closing.push(protocol.serialize.close({ type: "S", name }))
  }

  const execute = async (statement: Prepared, values: ReadonlyArray<unknown>, rowMode: RowMode) => {
    const text = values.map((value, i) => {
      if (value === null || value === undefined) return null
      const serialize = db.serializers[statement.parameterTypes[i]!]
      return serialize === undefined ? String(value) : serialize(value)
    })
    const answer = await db.execProtocolStream(
      joined([
        ...takeClosing(),
        protocol.serialize.bind({ statement: statement.name, values: text }),
        protocol.serialize.execute({}),
        protocol.serialize.sync()
      ])
    )
    // The columns were described with the statement: the rows name them the same way as PGlite's own.
    return parse.parseResults(statement.columns === undefined ? answer : [statement.columns, ...answer], db.parsers, { rowMode })[0]!
  }

  const run = async (sql: string, values: ReadonlyArray<unknown>, declaredTypes: ReadonlyArray<number>, rowMode: RowMode) => {
    const key = declaredTypes.length === 0 ? sql : `${declaredTypes.join(",")}\u0000${sql}`
    const known = prepared.get(key)
    if (known === undefined) return execute(await prepare(sql, key, declaredTypes), values, rowMode)
    // Used last now.
    prepared.delete(key)
    prepared.set(key, known)
    try {
      return await execute(known, values, rowMode)
    } catch (error) {
      if (!STALE.has((error as { code?: string }).code ?? "")) throw error
      forget(key, known.name)
      if (db.isInTransaction()) throw error
      return execute(await prepare(sql, key, declaredTypes), values, rowMode)
    }
  }

  /** Runs `sql` with `values`; `declaredTypes` are the parameters' types where the caller knows them (else 0). */
  return (sql: string, values: ReadonlyArray<unknown>, declaredTypes: ReadonlyArray<number>, rowMode: RowMode): Promise<Results<any>> =>
    sql.length > MAX_STATEMENT_TEXT
      ? runUnkept(db, sql, values, declaredTypes, rowMode)
      : db.runExclusive(() => run(sql, values, declaredTypes, rowMode))
}
