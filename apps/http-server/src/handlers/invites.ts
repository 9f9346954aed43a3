import { HedgerowApi } from "@hedgerow/api"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { operations } from "../operations.ts"
import { bind } from "./bind.ts"

export const InvitesHandlers = HttpApiBuilder.group(HedgerowApi, "invites", (handlers) =>
  Effect.succeed(handlers
    .handleRaw("list", bind(operations.invites.list))
    .handleRaw("create", bind(operations.invites.create))
    .handleRaw("bulk", bind(operations.invites.bulk))
    .handleRaw("destroy", bind(operations.invites.destroy))))
