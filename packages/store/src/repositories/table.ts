import { Effect, Option, Schema } from "effect"
import type { SqlClient, Statement } from "effect/sql"

/**
 * A stored resource is defined once, by core's schema of its record: a SELECT list is the schema's field
 * names, rows are decoded by the schema, and writes name the schema's fields. A new field is written in
 * the schema and the migration, never in a list here.
 */

type Fields = { readonly fields: Schema.Struct.Fields }

/** The schema's columns, each qualified by the table's alias in the query (`f.id, f.key, …`). */
export const columnsOf = (schema: Fields, alias?: string): string =>
  Object.keys(schema.fields).map((name) => (alias === undefined ? name : `${alias}.${name}`)).join(", ")

/** A row the schema refuses is a defect: the database holds only what core wrote through these schemas. */
export const decodeRows = <A, I>(schema: Schema.Codec<A, I>) => {
  const decode = Schema.decodeUnknownEffect(Schema.Array(schema))
  return (rows: ReadonlyArray<unknown>): Effect.Effect<ReadonlyArray<A>> => Effect.orDie(decode(rows))
}

/** The first row, decoded, if any. */
export const decodeFirst = <A, I>(schema: Schema.Codec<A, I>) => {
  const decode = Schema.decodeUnknownEffect(schema)
  return (rows: ReadonlyArray<unknown>): Effect.Effect<Option.Option<A>> =>
    rows.length === 0 ? Effect.succeedNone : Effect.orDie(Effect.map(decode(rows[0]), Option.some))
}

/**
 * Values for a write, as one JSON parameter that PostgreSQL reads into the table's own row type, so every
 * column gets its declared type (jsonb, arrays, uuid, timestamptz) without a cast written per column:
 * `INSERT INTO t (a, b) ${valuesOf(…)}` or `UPDATE t SET (a, b) = (${valuesOf(…)})`.
 */
export const valuesOf = <A, I>(sql: SqlClient.SqlClient, table: string, schema: Schema.Codec<A, I> & Fields) => {
  const encode = Schema.encodeSync(schema)
  const columns = sql.unsafe(columnsOf(schema))
  const rowType = sql.unsafe(`NULL::${table}`)
  return (value: A): Statement.Fragment =>
    sql`SELECT ${columns} FROM jsonb_populate_record(${rowType}, ${JSON.stringify(encode(value))}::jsonb)`
}

/**
 * The JSON record of a write alone, for a statement that adds columns of its own beside the schema's:
 * `INSERT INTO t (id, a, b) SELECT gen_random_uuid(), a, b FROM ${recordOf(…)(value)}`.
 */
export const recordOf = <A, I>(sql: SqlClient.SqlClient, table: string, schema: Schema.Codec<A, I> & Fields) => {
  const encode = Schema.encodeSync(schema)
  const rowType = sql.unsafe(`NULL::${table}`)
  return (value: A): Statement.Fragment => sql`jsonb_populate_record(${rowType}, ${JSON.stringify(encode(value))}::jsonb)`
}

/**
 * A joined row as one JSON object of the schema's fields (`{"id": …, "email": …}`), which the schema of
 * the row holding it decodes: several users ride on one flag row without prefixed columns. Null when an
 * outer join found no row (its `key` column, never null in a row, is null). Timestamps inside come as
 * JSON text in the session's zone, UTC on both stores, which `Timestamp` reads with every digit. At most
 * 50 fields: PostgreSQL passes a function 100 arguments.
 */
export const objectOf = (schema: Fields, alias: string, key = "id"): string =>
  `CASE WHEN ${alias}.${key} IS NULL THEN NULL ELSE json_build_object(${
    Object.keys(schema.fields).map((name) => `'${name}', ${alias}.${name}`).join(", ")
  }) END`

/** The one row a write returns (an INSERT that cannot conflict, an UPDATE of a known row), decoded. */
export const decodeOne = <A, I>(schema: Schema.Codec<A, I>) => {
  const decode = Schema.decodeUnknownEffect(schema)
  return (rows: ReadonlyArray<unknown>): Effect.Effect<A> => Effect.orDie(decode(rows[0]))
}
