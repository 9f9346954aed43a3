import { HedgerowApi } from "@hedgerow/api"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { operations } from "../operations.ts"
import { bind } from "./bind.ts"

export const DomainsHandlers = HttpApiBuilder.group(HedgerowApi, "domains", (handlers) =>
  Effect.succeed(handlers
    .handleRaw("list", bind(operations.domains.list))
    .handleRaw("create", bind(operations.domains.create))
    .handleRaw("retrieve", bind(operations.domains.retrieve))
    .handleRaw("update", bind(operations.domains.update))
    .handleRaw("destroy", bind(operations.domains.destroy))
    .handleRaw("verify", bind(operations.domains.verify))))
