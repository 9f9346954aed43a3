import { createFlag, FLAGS, projectOf, rolledOut, uniqueKey } from "./feature-flags-support.ts"
import { INCORRECT_CREDENTIALS, NO_PROJECT_ACCESS, tokenOf } from "./flag-definitions.ts"
import { BAD_KEY, expectReply, missingScope, needWorld, NOT_AUTHENTICATED, NOT_FOUND, type Scenario } from "./scenario.ts"

/** A remote configuration flag whose `"true"` payload is `payload`. */
const remoteConfigFlag = (payload?: unknown) => ({
  key: uniqueKey("remote-config"),
  is_remote_configuration: true,
  filters: { ...rolledOut(100), ...(payload === undefined ? {} : { payloads: { true: payload } }) }
})

/** `{id or key}/remote_config/`: what posthog-node's getRemoteConfigPayload fetches. */
export const flagRemoteConfigScenarios: ReadonlyArray<Scenario> = [
  {
    name: "remote config: a remote configuration flag's payload as stored, by id or key, also by token as posthog-node asks; null without one",
    run: async (context) => {
      const { target, primary } = context
      const project = projectOf(context)
      const at = { key: primary.key, project }
      const token = await tokenOf(target, primary.key, project)
      const flag = await createFlag(target, at, remoteConfigFlag("{\"theme\": \"dark\"}"))
      const ask = (id: string | number, extra: { project?: string | number; token?: string } = {}) =>
        target.call(FLAGS.remoteConfig, {
          key: primary.key,
          params: { project_id: extra.project ?? project, id },
          ...(extra.token === undefined ? {} : { query: { token: extra.token } })
        })
      for (const reply of [await ask(flag.id), await ask(flag.key), await ask(flag.key, { project: "@current", token })]) {
        expectReply(reply, 200, "{\"theme\": \"dark\"}")
      }
      // Python's falsiness: no payload, or a falsy one, is null.
      expectReply(await ask((await createFlag(target, at, remoteConfigFlag())).id), 200, null)
      expectReply(await ask((await createFlag(target, at, remoteConfigFlag(0))).id), 200, null)
      expectReply(await ask((await createFlag(target, at, remoteConfigFlag({ a: 1 }))).key), 200, { a: 1 })
    }
  },
  {
    name: "remote config: 404 with a null body for a flag that is not a remote configuration flag, an unknown one and another tenant's; the envelope's 404 for a project not the caller's; 401 and 403 as the other flag endpoints",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const at = { key: world.keys.ownerA, project: world.projectA }
      const plain = await createFlag(target, at, { key: uniqueKey("not-remote"), filters: { ...rolledOut(100), payloads: { true: "1" } } })
      const remote = await createFlag(target, at, remoteConfigFlag("\"on\""))
      const theirs = await createFlag(target, { key: world.keys.ownerB, project: world.projectB }, remoteConfigFlag("\"theirs\""))
      const ask = (key: string | undefined, project: number | string, id: string | number, token?: string) =>
        target.call(FLAGS.remoteConfig, { key, params: { project_id: project, id }, ...(token === undefined ? {} : { query: { token } }) })
      // No such remote configuration in the project: PostHog's bare 404, JSON's nothing.
      for (const id of [plain.id, plain.key, 999_999, "no-such-flag", theirs.id, theirs.key, "0"]) {
        expectReply(await ask(world.keys.ownerA, world.projectA, id), 404, null)
      }
      // A project the caller cannot see is the envelope's 404, as on every project path.
      expectReply(await ask(world.keys.ownerA, world.projectB, theirs.id), 404, NOT_FOUND)
      expectReply(await ask(world.keys.ownerA, 999_999, remote.id), 404, NOT_FOUND)
      expectReply(await ask(undefined, world.projectA, remote.id), 401, NOT_AUTHENTICATED)
      expectReply(await ask("phx_not_a_key", world.projectA, remote.id), 401, BAD_KEY)
      expectReply(await ask(world.keys.ownerA, world.projectA, remote.id, "phc_unknown"), 401, INCORRECT_CREDENTIALS)
      expectReply(await ask(world.keys.projectReadA, world.projectA, remote.id), 403, missingScope("feature_flag:read"))
      const tokenB = await tokenOf(target, world.keys.ownerB, world.projectB)
      expectReply(await ask(world.keys.ownerA, "@current", theirs.key, tokenB), 403, NO_PROJECT_ACCESS)
      expectReply(await ask(world.keys.ownerB, "@current", theirs.key, tokenB), 200, "\"theirs\"")
      expectReply(await ask(world.keys.flagReadA, world.projectA, remote.key), 200, "\"on\"")
    }
  }
]
