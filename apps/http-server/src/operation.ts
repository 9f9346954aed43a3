import type { ApiFailure, Body, UserActor } from "@hedgerow/core"
import type { Effect } from "effect"

/** What an endpoint hands to core: path segments and query as text, the body, the request URL. */
export interface OperationInput {
  readonly actor: UserActor
  readonly params: Readonly<Record<string, string>>
  readonly query: Readonly<Record<string, string | undefined>>
  /** The JSON body, read when core asks for it (after scope and tenancy checks). */
  readonly body: Body
  /** Absolute request URL, for pagination links. */
  readonly url: string
}

export type Operation<R = any> = (input: OperationInput) => Effect.Effect<unknown, ApiFailure, R>
