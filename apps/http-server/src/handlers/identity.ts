import { HedgerowApi } from "@hedgerow/api"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { operations } from "../operations.ts"
import { bind } from "./bind.ts"

export const IdentityHandlers = HttpApiBuilder.group(HedgerowApi, "identity", (handlers) =>
  Effect.succeed(handlers
    .handleRaw("me", bind(operations.identity.me))
    .handleRaw("currentKey", bind(operations.identity.currentKey))))
