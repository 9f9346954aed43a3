import { Context, type Effect } from "effect"

/** Runs an effect as one database transaction: every write of a use case commits or none does. */
export class Transactions extends Context.Service<Transactions, {
  readonly run: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}>()("hedgerow/Transactions") {}
