import { type Draft, filtersOf } from "./draft.ts"
import { conditionLines, variantLines } from "./release-words.ts"

/** How recent an evaluation makes a rename risky: code that asked for the flag then likely still does. */
const RECENT_CALL_MS = 24 * 3600 * 1000

/** A change a save would make that someone should agree to first, in words: what happens, and before/after lines. */
export interface RiskyChange {
  readonly what: string
  readonly before?: ReadonlyArray<string>
  readonly after?: ReadonlyArray<string>
}

/** Whom a draft reaches, a line per condition and variant: what the confirmation shows before and after. */
const releaseWords = (draft: Draft): Array<string> => {
  const filters = filtersOf(draft)
  return [...conditionLines(filters), ...variantLines(filters)]
}

/**
 * What of a save to a stored flag is risky: turning a live flag off, renaming the key of one evaluated
 * in the last day, and changing whom a live flag reaches (a rollout moved, a condition or the variant
 * split changed). `saved` is the flag's draft as the API holds it; `lastCalledAt` its last evaluation.
 */
export const riskyChanges = (saved: Draft, draft: Draft, lastCalledAt: string | null, now = Date.now()): Array<RiskyChange> => {
  const changes: Array<RiskyChange> = []
  if (saved.active && !draft.active) {
    changes.push({ what: `Turning "${saved.key}" off: every SDK that asks for it gets false, for everyone, until it is turned on again.` })
  }
  if (draft.key !== saved.key && lastCalledAt !== null && now - Date.parse(lastCalledAt) < RECENT_CALL_MS) {
    changes.push({
      what: `Renaming the key from "${saved.key}" to "${draft.key}": the flag was evaluated in the last ${RECENT_CALL_MS / 3_600_000} hours, and code that asks for "${saved.key}" will get nothing (the flag is not found under that key) until it asks for "${draft.key}".`
    })
  }
  if (saved.active && draft.active) {
    const before = releaseWords(saved)
    const after = releaseWords(draft)
    if (JSON.stringify(before) !== JSON.stringify(after)) {
      changes.push({ what: "Changing whom this live flag reaches:", before, after })
    }
  }
  return changes
}
