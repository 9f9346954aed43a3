import { Effect } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { fixedAnswer } from "./fixed-answer.ts"

/** The bare `node:http` baseline (fixed-answer.ts) in this process. Scoped; yields its URL. */
export const baselineServer = (body: Uint8Array, status = 200) =>
  Effect.acquireRelease(
    Effect.callback<{ readonly server: ReturnType<typeof createServer>; readonly url: string }>((resume) => {
      const server = createServer(fixedAnswer(body, status))
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo
        resume(Effect.succeed({ server, url: `http://127.0.0.1:${port}` }))
      })
    }),
    ({ server }) =>
      Effect.callback<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map(({ url }) => url))
