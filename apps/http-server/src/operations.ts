import {
  type ApiFailure,
  type Body,
  OrganizationService,
  PersonalApiKeyService,
  ProjectService,
  toEnvelope,
  type UserActor,
  UserService
} from "@hedgerow/core"
import { Effect } from "effect"

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

/**
 * Every authenticated endpoint of the contract bound to its core call, keyed like HedgerowApi's groups
 * and endpoints. The HTTP handlers and the harness's in-process target both run these, so the binding
 * is written once; each entry only translates.
 */
export const operations = {
  organizations: {
    list: ({ actor, query, url }) =>
      OrganizationService.use((s) => s.listVisible(actor, query)).pipe(Effect.map((page) => toEnvelope(page, url))),
    retrieve: ({ actor, params }) => OrganizationService.use((s) => s.retrieve(actor, params["organization_id"]!))
  },
  organizationProjects: {
    list: ({ actor, params, query, url }) =>
      ProjectService.use((s) => s.list(actor, params["organization_id"]!, query)).pipe(
        Effect.map((page) => toEnvelope(page, url))
      ),
    create: ({ actor, params, body }) => ProjectService.use((s) => s.create(actor, params["organization_id"]!, body)),
    retrieve: ({ actor, params }) => ProjectService.use((s) => s.retrieve(actor, params["organization_id"]!, params["id"]!))
  },
  projects: {
    list: ({ actor, query, url }) =>
      ProjectService.use((s) => s.listVisible(actor, query)).pipe(Effect.map((page) => toEnvelope(page, url))),
    retrieve: ({ actor, params }) => ProjectService.use((s) => s.retrieveVisible(actor, params["project_id"]!))
  },
  identity: {
    me: ({ actor }) => UserService.use((s) => s.me(actor)),
    currentKey: ({ actor }) => PersonalApiKeyService.use((s) => Effect.succeed(s.current(actor)))
  }
} as const satisfies Record<string, Record<string, Operation>>

export type Operations = typeof operations
