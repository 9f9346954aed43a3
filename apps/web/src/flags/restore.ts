import type { Flag } from "./flag.tsx"
import { patchFlag } from "./patch.ts"

/**
 * Restores a deleted flag (`deleted: false`) as it was read. The API refuses (400, on `key`) when another
 * flag has taken its key since; the caller shows that refusal in the API's words.
 */
export const restoreFlag = (projectId: string, flag: Pick<Flag, "id" | "version">): Promise<Flag> =>
  patchFlag(projectId, flag, { deleted: false })
