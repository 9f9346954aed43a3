import { HedgerowApi } from "@hedgerow/api"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { operations } from "../operations.ts"
import { bind } from "./bind.ts"

export const ProjectsHandlers = HttpApiBuilder.group(HedgerowApi, "projects", (handlers) =>
  Effect.succeed(handlers
    .handleRaw("list", bind(operations.projects.list))
    .handleRaw("retrieve", bind(operations.projects.retrieve))))
