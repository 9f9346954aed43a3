import { characters } from "./fields.ts"

/**
 * A distinct id as this service keeps and reads it: at most 200 characters, counted as code points (a
 * surrogate pair is one). `/flags` cuts a longer one to that length, as PostHog's flags service does, and
 * PostHog's batch exports write none longer. A static cohort's member may not be longer either: it could
 * never match.
 */
export const MAX_DISTINCT_ID_LENGTH = 200

/** Why text cannot be a stored distinct id for its length (`what` names it: "row 3 of the CSV"), or undefined. */
export const distinctIdError = (id: string, what: string): string | undefined =>
  characters(id) > MAX_DISTINCT_ID_LENGTH ? `A distinct ID may have at most ${MAX_DISTINCT_ID_LENGTH} characters; ${what} has more.` : undefined

/** The text's first `count` code points; only those are read, however long the text. */
const firstCodePoints = (text: string, count: number): string => {
  let end = 0
  for (let taken = 0; taken < count && end < text.length; taken++) {
    const unit = text.charCodeAt(end)
    const pair = unit >= 0xd800 && unit <= 0xdbff && end + 1 < text.length &&
      text.charCodeAt(end + 1) >= 0xdc00 && text.charCodeAt(end + 1) <= 0xdfff
    end += pair ? 2 : 1
  }
  return text.slice(0, end)
}

/** A distinct id as `/flags` reads it: cut to its first 200 code points. */
export const readDistinctId = (id: string): string =>
  id.length <= MAX_DISTINCT_ID_LENGTH ? id : firstCodePoints(id, MAX_DISTINCT_ID_LENGTH)
