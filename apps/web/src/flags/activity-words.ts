import type { Success } from "../api/contract.ts"
import { rolloutMove } from "./rollout-move.ts"

/** An activity entry as the API answers it. */
export type ActivityEntry = Success<"GET", "/api/projects/:project_id/feature_flags/:id/activity/">["results"][number]
export type ActivityChange = NonNullable<ActivityEntry["detail"]["changes"]>[number]

/** What one change of an entry says, and, for the release conditions, their two versions to compare. */
export interface ChangeStory {
  readonly words: string
  readonly filters?: { readonly before: unknown; readonly after: unknown }
}

/** The fields as the flag's form names them; an API name the form does not use is never shown. */
const FIELD_WORDS: Readonly<Record<string, string>> = {
  key: "key",
  name: "description",
  filters: "release conditions",
  active: "active",
  tags: "tags",
  ensure_experience_continuity: "persisting the flag across authentication steps",
  evaluation_runtime: "evaluation runtime",
  is_remote_configuration: "remote configuration",
  has_encrypted_payloads: "encrypted payloads",
  has_enriched_analytics: "enriched analytics",
  rollback_conditions: "rollback conditions",
  performed_rollback: "rollback"
}

/** Changes an entry lists that say nothing a person needs: the version's step, and the deletion the entry itself names. */
const UNTOLD: ReadonlySet<string> = new Set(["version", "deleted"])

/** Who made the entry: their first name, else their e-mail; the server itself for a system change. */
export const actorOf = (entry: Pick<ActivityEntry, "user">): string => {
  const user = entry.user
  if (user === null) return "Someone"
  if (user.is_system === true) return "The server"
  return user.first_name !== "" ? user.first_name : user.email ?? "Someone"
}

const quoted = (value: unknown): string => typeof value === "string" ? `"${value}"` : JSON.stringify(value)

const listOf = (value: unknown): Array<string> => Array.isArray(value) ? value.map(String) : []

const tagStory = (before: unknown, after: unknown): string => {
  const was = listOf(before)
  const now = listOf(after)
  const added = now.filter((tag) => !was.includes(tag))
  const removed = was.filter((tag) => !now.includes(tag))
  const parts = [
    added.length === 0 ? "" : `added the tag${added.length === 1 ? "" : "s"} ${added.join(", ")}`,
    removed.length === 0 ? "" : `removed the tag${removed.length === 1 ? "" : "s"} ${removed.join(", ")}`
  ].filter((part) => part !== "")
  return parts.length === 0 ? "reordered the tags" : parts.join(" and ")
}

/** One change in words, as "<who> …" goes on; none for a change that says nothing to a person. */
export const changeStory = (change: ActivityChange): ChangeStory | undefined => {
  const field = change.field
  if (field === null || UNTOLD.has(field)) return undefined
  const { before, after } = change
  switch (field) {
    case "active":
      return { words: `turned the flag ${after === true ? "on" : "off"}` }
    case "key":
      return { words: `renamed the key from ${String(before)} to ${String(after)}` }
    case "tags":
      return { words: tagStory(before, after) }
    case "filters": {
      const moved = rolloutMove(before, after)
      if (moved !== undefined) {
        const which = moved.of === 1 ? "the rollout" : `the rollout of condition ${moved.condition}`
        return { words: `changed ${which} from ${moved.from} to ${moved.to}`, filters: { before, after } }
      }
      return { words: "changed the release conditions", filters: { before, after } }
    }
  }
  const words = FIELD_WORDS[field] ?? field.replaceAll("_", " ")
  if (typeof after === "boolean" && (typeof before === "boolean" || before === null)) return { words: `turned ${words} ${after ? "on" : "off"}` }
  if (change.action === "created") return { words: `set the ${words} to ${quoted(after)}` }
  if (change.action === "deleted") return { words: `removed the ${words} (was ${quoted(before)})` }
  return { words: `changed the ${words} from ${quoted(before)} to ${quoted(after)}` }
}

/** What the entry says happened to the flag, before its changes: created, deleted, restored; nothing for an update. */
export const activityVerb = (entry: ActivityEntry): string | undefined =>
  entry.activity === "updated" ? undefined : entry.activity.replaceAll("_", " ")

/** The changes of the entry a person is told about, in the order the API lists them. */
export const storiesOf = (entry: ActivityEntry): Array<ChangeStory> =>
  (entry.detail.changes ?? []).flatMap((change) => {
    const story = changeStory(change)
    return story === undefined ? [] : [story]
  })
