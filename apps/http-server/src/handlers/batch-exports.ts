import { HedgerowApi } from "@hedgerow/api"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { operations } from "../operations.ts"
import { bind } from "./bind.ts"

export const BatchExportsHandlers = HttpApiBuilder.group(HedgerowApi, "batchExports", (handlers) =>
  Effect.succeed(handlers
    .handleRaw("pause", bind(operations.batchExports.pause))
    .handleRaw("unpause", bind(operations.batchExports.unpause))))
