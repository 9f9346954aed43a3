import { fixedAnswer } from "./fixed-answer.ts"
import { loopbackServer } from "./loopback-server.ts"

/** The bare `node:http` baseline (fixed-answer.ts) in this process. Scoped; yields its URL. */
export const baselineServer = (body: Uint8Array, status = 200) => loopbackServer(fixedAnswer(body, status))
