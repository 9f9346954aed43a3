// Run by packed.test.ts inside a scratch app that installed the packed tarballs: an application's
// first steps with Hedgerow, on its built JavaScript only. Prints one JSON object.
import { Authentication, Bootstrap, OrganizationService } from "@hedgerow/core"
import { Hedgerow } from "@hedgerow/store"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

const started = Date.now()

const program = Effect.gen(function*() {
  const done = yield* Bootstrap.use((bootstrap) => bootstrap.run({ email: "packed@example.com", organizationName: "Packed" }))
  const actor = yield* Authentication.use((authentication) => authentication.authenticate(done.personal_api_key))
  const organization = yield* OrganizationService.use((organizations) => organizations.retrieve(actor, done.organization_id))
  const bootstrapped = yield* Bootstrap.use((bootstrap) => bootstrap.isBootstrapped)
  // A store made of the package's empty store was migrated when the package was built, before this start.
  const sql = yield* SqlClient.SqlClient
  const [migrated] = yield* sql`SELECT max(created_at) AS at FROM hedgerow_migrations`
  return { organization: organization.name, owner: done.user.email, bootstrapped, madeOfEmptyStore: new Date(migrated.at).getTime() < started }
})

const result = await Effect.runPromise(program.pipe(Effect.provide(Hedgerow.layer())))
// The other two packages load too: their exports resolve to runnable JavaScript.
const { HedgerowApi } = await import("@hedgerow/api")
const { HedgerowServer, openHedgerow } = await import("@hedgerow/http-server")
console.log(JSON.stringify({ ...result, api: typeof HedgerowApi, server: typeof HedgerowServer.layer, embed: typeof openHedgerow }))
