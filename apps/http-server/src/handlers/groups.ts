import { HedgerowApi, HealthUnavailable } from "@hedgerow/api"
import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { SqlClient } from "effect/sql"
import { operations } from "../operations.ts"
import { bind } from "./bind.ts"

const OrganizationsHandlers = HttpApiBuilder.group(HedgerowApi, "organizations", (handlers) =>
  Effect.succeed(handlers
    .handleRaw("list", bind(operations.organizations.list))
    .handleRaw("retrieve", bind(operations.organizations.retrieve))))

const OrganizationProjectsHandlers = HttpApiBuilder.group(HedgerowApi, "organizationProjects", (handlers) =>
  Effect.succeed(handlers
    .handleRaw("list", bind(operations.organizationProjects.list))
    .handleRaw("create", bind(operations.organizationProjects.create))
    .handleRaw("retrieve", bind(operations.organizationProjects.retrieve))))

const ProjectsHandlers = HttpApiBuilder.group(HedgerowApi, "projects", (handlers) =>
  Effect.succeed(handlers
    .handleRaw("list", bind(operations.projects.list))
    .handleRaw("retrieve", bind(operations.projects.retrieve))))

const IdentityHandlers = HttpApiBuilder.group(HedgerowApi, "identity", (handlers) =>
  Effect.succeed(handlers
    .handleRaw("me", bind(operations.identity.me))
    .handleRaw("currentKey", bind(operations.identity.currentKey))))

const SystemHandlers = HttpApiBuilder.group(HedgerowApi, "system", (handlers) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return handlers.handle("health", () =>
      sql`SELECT 1`.pipe(
        Effect.as({ status: "ok" as const }),
        Effect.catch(() => Effect.fail(new HealthUnavailable({ status: "unavailable" })))
      ))
  }))

export const HandlersLive = Layer.mergeAll(
  OrganizationsHandlers,
  OrganizationProjectsHandlers,
  ProjectsHandlers,
  IdentityHandlers,
  SystemHandlers
)
