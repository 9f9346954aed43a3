import { recordsOf } from "./draft.ts"
import { isRecord } from "./flag.tsx"
import { percentWords } from "./release-words.ts"

type Json = Record<string, unknown>

/**
 * The one rollout a change of a flag's `filters` moved, when that is all it changed: which condition (its
 * number, counted from 1) and its percentages before and after; undefined for any other change.
 */
export const rolloutMove = (before: unknown, after: unknown): { readonly condition: number; readonly of: number; readonly from: string; readonly to: string } | undefined => {
  if (!isRecord(before) || !isRecord(after)) return undefined
  const left = recordsOf(before["groups"])
  const right = recordsOf(after["groups"])
  if (left.length !== right.length || left.length === 0) return undefined
  const withoutGroups = (filters: Json) => JSON.stringify({ ...filters, groups: null })
  if (withoutGroups(before) !== withoutGroups(after)) return undefined
  const moved = left.flatMap((group, index) => {
    const other = right[index]!
    const sameOtherwise = JSON.stringify({ ...group, rollout_percentage: null }) === JSON.stringify({ ...other, rollout_percentage: null })
    if (!sameOtherwise) return [undefined]
    return (group["rollout_percentage"] ?? 100) === (other["rollout_percentage"] ?? 100) ? [] : [index]
  })
  if (moved.length !== 1 || moved[0] === undefined) return undefined
  const index = moved[0]
  return {
    condition: index + 1,
    of: left.length,
    from: percentWords(left[index]!["rollout_percentage"], 100),
    to: percentWords(right[index]!["rollout_percentage"], 100)
  }
}
