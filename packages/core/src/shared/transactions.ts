import { Context, type Effect } from "effect"

/** Runs an effect as one database transaction: every write of a use case commits or none does. */
export class Transactions extends Context.Service<Transactions, {
  readonly run: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /**
   * Runs a write of one statement, atomic by itself, without a transaction around it, which saves two
   * round trips. This process's read model forgets what it wrote, as after `run`.
   */
  readonly single: <A, E, R>(statement: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /**
   * Inside `run`: waits until no other transaction holds `name`, then holds it until this one ends. It
   * guards the rules no row lock can guard when several processes share a database: those whose rows
   * read are not the rows written (a first bootstrap, a dependency cycle drawn by two flags at once).
   */
  readonly serialize: (name: string) => Effect.Effect<void>
}>()("hedgerow/Transactions") {}
