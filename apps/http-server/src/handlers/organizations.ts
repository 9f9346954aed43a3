import { HedgerowApi } from "@hedgerow/api"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { operations } from "../operations.ts"
import { bind } from "./bind.ts"

export const OrganizationsHandlers = HttpApiBuilder.group(HedgerowApi, "organizations", (handlers) =>
  Effect.succeed(handlers
    .handleRaw("list", bind(operations.organizations.list))
    .handleRaw("retrieve", bind(operations.organizations.retrieve))))

export const OrganizationProjectsHandlers = HttpApiBuilder.group(HedgerowApi, "organizationProjects", (handlers) =>
  Effect.succeed(handlers
    .handleRaw("list", bind(operations.organizationProjects.list))
    .handleRaw("create", bind(operations.organizationProjects.create))
    .handleRaw("retrieve", bind(operations.organizationProjects.retrieve))))
