import { request } from "../api/client.ts"
import { invalidateWith } from "../api/resources.ts"
import { urlOf } from "../api/use-api.ts"
import { type Flag, FLAG_PATH, flagsPrefix } from "./flag.tsx"

/**
 * Brings a deleted flag back (`PATCH … {deleted: false}`), with the `version` read when one is given so
 * that a change made meanwhile is refused, not overwritten. The API refuses (400, on `key`) when another
 * flag has taken its key since; the promise then fails with its words. The project's flag reads are
 * renewed with the answer.
 */
export const restoreFlag = (projectId: string, flag: { readonly id: number; readonly version?: number | undefined }): Promise<Flag> => {
  const options = { params: { project_id: projectId, id: String(flag.id) } }
  return request("PATCH", FLAG_PATH, { ...options, payload: { deleted: false, ...(flag.version === undefined ? {} : { version: flag.version }) } }).then(
    (restored) => {
      invalidateWith(flagsPrefix(projectId), urlOf(FLAG_PATH, options), restored)
      return restored
    }
  )
}
