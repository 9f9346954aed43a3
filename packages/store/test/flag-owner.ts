import { Authentication, Bootstrap, bodyOf, FlagService, type ProjectId, type UserActor } from "@hedgerow/core"
import { Effect } from "effect"

/**
 * Feature flags written through core's service as the bootstrapped owner would, for the suites that
 * test flags on a real store.
 */

// One owner per store (each backend's layer has its own), bootstrapped on first use.
const owners = new WeakMap<object, { readonly actor: UserActor; readonly project: string; readonly projectId: ProjectId }>()

export const setUp = Effect.gen(function*() {
  const bootstrap = yield* Bootstrap
  const known = owners.get(bootstrap)
  if (known !== undefined) return known
  const boot = yield* bootstrap.run({ email: "flags@example.com" })
  const actor = yield* Authentication.use((auth) => auth.authenticate(boot.personal_api_key))
  const owner = { actor, project: String(boot.project_id), projectId: boot.project_id as ProjectId }
  owners.set(bootstrap, owner)
  return owner
})

let serial = 0
export const freshKey = (stem: string) => `${stem}-${++serial}`

export const create = (body: object) =>
  Effect.gen(function*() {
    const { actor, project } = yield* setUp
    return yield* FlagService.use((flags) => flags.create(actor, project, bodyOf(body)))
  })

export const patch = (id: number, body: object) =>
  Effect.gen(function*() {
    const { actor, project } = yield* setUp
    return yield* FlagService.use((flags) => flags.update(actor, project, String(id), bodyOf(body)))
  })

export const retrieve = (id: number) =>
  Effect.gen(function*() {
    const { actor, project } = yield* setUp
    return yield* FlagService.use((flags) => flags.retrieve(actor, project, String(id)))
  })
