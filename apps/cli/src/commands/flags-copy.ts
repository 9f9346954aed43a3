import type { CopyFlagsResult } from "@hedgerow/core"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import { Argument, Flag } from "effect/cli"
import { CURRENT } from "../defaults.ts"
import { details, UsageError } from "../output.ts"
import { numberList } from "../request-body.ts"
import { resource } from "../resource.ts"
import { inOrganization } from "../scope.ts"

/** A flag of an organization's projects, named by its key (the same in every project). */
const orgFlag = resource({
  noun: "flag",
  scope: inOrganization,
  id: Argument.String("flag-key").pipe(Argument.withDescription("The key of the flag to copy")),
  show: (found: object) => details(found)
})

/**
 * One line per target, in the order given: the flag's id and version there, or why it was not written.
 * The answer lists the written flags in the order of their targets, and the others with their ids.
 */
const render = (targets: ReadonlyArray<number>, result: CopyFlagsResult): string => {
  const failed = [...result.failed]
  const written = [...result.success]
  return targets.map((target) => {
    const failure = failed.findIndex((entry) => entry.project_id === target)
    if (failure >= 0) return `not copied to project ${target}: ${failed.splice(failure, 1)[0]!.error_message}`
    const flag = written.shift()
    return flag === undefined ? `project ${target}: no answer` : `copied ${flag.key} to project ${target} (flag ${flag.id}, version ${flag.version})`
  }).join("\n")
}

export const copy = orgFlag.onItem("copy", {
  description:
    "Copy a flag to other projects of the organization (PostHog's copy_flags), with the cohorts it names (matched by name, made when missing): created there, or changed in place where its key exists",
  flags: {
    to: Flag.String("to").pipe(Flag.withDescription("The target project ids, comma-separated (at most 50)")),
    from: Flag.String("from").pipe(
      Flag.withDescription(`The project to copy from, or ${CURRENT} for the key holder's current project`),
      Flag.withDefault(CURRENT)
    ),
    disable: Flag.Boolean("disable").pipe(Flag.withDescription("Write the copies inactive, whatever the source's state"), Flag.withDefault(false))
  },
  run: ({ client, at, id, values, json }) =>
    Effect.gen(function*() {
      const targets = numberList(values.to)
      if (targets.some((target) => !Number.isInteger(target))) return yield* new UsageError({ message: "--to takes project ids, comma-separated" })
      const from = values.from === CURRENT ? (yield* client.projects.retrieve({ params: { project_id: CURRENT } })).id : Number(values.from)
      const result = yield* client.flagCopy.copyFlags({
        params: at,
        payload: { feature_flag_key: id, from_project: from, target_project_ids: targets, ...(values.disable ? { disable_copied_flag: true } : {}) }
      })
      yield* Console.log(json ? JSON.stringify(result) : render(targets, result))
      if (result.failed.length > 0) {
        return yield* new UsageError({ message: `not copied to ${result.failed.length} of ${targets.length} projects` })
      }
    })
})
