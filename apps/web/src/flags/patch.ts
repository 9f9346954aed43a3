import { request } from "../api/client.ts"
import type { Payload } from "../api/contract.ts"
import { FLAG_PATH, type Flag } from "./flag.tsx"

/** What a PATCH of a flag may send, as the contract types it. */
export type FlagChange = Payload<"PATCH", typeof FLAG_PATH>

/**
 * Changes a flag as it was read: with its `version`, so that a change made meanwhile by someone else is
 * refused (409) rather than overwritten.
 */
export const patchFlag = (projectId: string, flag: Pick<Flag, "id" | "version">, change: FlagChange): Promise<Flag> =>
  request("PATCH", FLAG_PATH, { params: { project_id: projectId, id: String(flag.id) }, payload: { ...change, version: flag.version } })
