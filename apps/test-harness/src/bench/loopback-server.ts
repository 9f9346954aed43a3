import { Effect } from "effect"
import { createServer, type RequestListener } from "node:http"
import type { AddressInfo } from "node:net"

/**
 * A `node:http` server in this process on a free loopback port, answering with `listener`; yields its
 * URL. Closed with the scope, its open connections first.
 */
export const loopbackServer = (listener: RequestListener) =>
  Effect.acquireRelease(
    Effect.callback<{ readonly server: ReturnType<typeof createServer>; readonly url: string }>((resume) => {
      const server = createServer(listener)
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
