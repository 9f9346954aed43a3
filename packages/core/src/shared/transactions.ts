import { Context, type Effect } from "effect"

/** Runs an effect as one database transaction: every write of a use case commits or none does. */
export class Transactions extends Context.Service<Transactions, {
  readonly run: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /**
   * A write that is one statement, atomic by itself, run without a transaction around it (two round trips
   * fewer); what it wrote is forgotten by this process's read model as after `run`.
   */
  readonly single: <A, E, R>(statement: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /**
   * Inside `run`: waits until no other transaction holds `name`, then holds it until this one ends. For
   * rules no row lock can guard, because the rows they read are not the rows they write (a first
   * bootstrap, a dependency cycle drawn by two flags at once), when several processes share a database.
   */
  readonly serialize: (name: string) => Effect.Effect<void>
}>()("hedgerow/Transactions") {}
