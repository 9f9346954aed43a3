import { prepareCore, prepareServer } from "./in-process.ts"
import type { Prepare } from "./prepared.ts"
import { prepareProcess } from "./process.ts"

/**
 * The harness's own targets, by name: core in-process (no HTTP), the server in this process on a random
 * port, and a separate server process reached only through its URL. Each is prepared on the store given.
 */
export const preparers: Readonly<Record<"core" | "server" | "process", Prepare>> = {
  core: prepareCore,
  server: prepareServer,
  process: prepareProcess
}
