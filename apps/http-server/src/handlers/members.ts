import { HedgerowApi } from "@hedgerow/api"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { operations } from "../operations.ts"
import { bind } from "./bind.ts"

export const MembersHandlers = HttpApiBuilder.group(HedgerowApi, "members", (handlers) =>
  Effect.succeed(handlers
    .handleRaw("list", bind(operations.members.list))
    .handleRaw("update", bind(operations.members.update))
    .handleRaw("destroy", bind(operations.members.destroy))))
