import { Bootstrap, type OrganizationId, type ProjectId, type UserId } from "@hedgerow/core"
import { baseUrl, HedgerowServer } from "@hedgerow/http-server"
import { Context, Effect, Layer } from "effect"

/** The bootstrapped tenant every scenario works in, and how to reach and authenticate to it. */
export class HedgerowFixture extends Context.Service<HedgerowFixture, {
  readonly baseUrl: string
  readonly organizationId: OrganizationId
  readonly projectId: ProjectId
  /** The bootstrapped owner, whose key the requests carry. */
  readonly userId: UserId
  /** `Authorization: Bearer <personal API key with scope *>`. */
  readonly authorization: Readonly<Record<string, string>>
}>()("hedgerow/bench/HedgerowFixture") {}

const serverLayer = HedgerowServer({ port: 0, host: "127.0.0.1", store: {} })

/** Everything a scenario's setup may use: core's services, the store, the server and the fixture. */
export type HedgerowServices = Layer.Success<typeof serverLayer> | HedgerowFixture

/**
 * Hedgerow in this process on an in-memory store, bootstrapped, for as long as the enclosing scope
 * lives. Scenarios get the layer's services too, so they can seed data through core directly.
 */
export const startHedgerow = Effect.gen(function*() {
  const context = yield* Layer.build(serverLayer)
  const fixture = yield* Effect.gen(function*() {
    const url = yield* baseUrl
    const tenant = yield* (yield* Bootstrap).run({})
    return HedgerowFixture.of({
      baseUrl: url,
      organizationId: tenant.organization_id,
      projectId: tenant.project_id,
      userId: tenant.user.id,
      authorization: { authorization: `Bearer ${tenant.personal_api_key}` }
    })
  }).pipe(Effect.provideContext(context))
  return Context.add(context, HedgerowFixture, fixture)
})
