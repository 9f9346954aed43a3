import { HedgerowApi, HealthUnavailable } from "@hedgerow/api"
import { preflightOf, SsoSettings } from "@hedgerow/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { SqlClient } from "effect/sql"

export const SystemHandlers = HttpApiBuilder.group(HedgerowApi, "system", (handlers) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    // The providers are read from the environment once, at start; so is the answer.
    const preflight = preflightOf(yield* SsoSettings)
    return handlers
      .handle("health", () =>
        sql`SELECT 1`.pipe(
          Effect.as({ status: "ok" as const }),
          Effect.catch(() => Effect.fail(new HealthUnavailable({ status: "unavailable" })))
        ))
      .handle("preflight", () => Effect.succeed(preflight))
  }))
