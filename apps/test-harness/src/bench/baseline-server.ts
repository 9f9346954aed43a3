import { Effect } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"

/**
 * A bare `node:http` server that answers every request with the same status and bytes: the floor any Node
 * HTTP service on this machine can reach for a response of that size. Scoped; yields its URL.
 */
export const baselineServer = (body: Uint8Array, status = 200) =>
  Effect.acquireRelease(
    Effect.callback<{ readonly server: ReturnType<typeof createServer>; readonly url: string }>((resume) => {
      // Headers and body are fixed, so nothing is computed per request.
      // A 304 has neither body nor length.
      const headers = status === 304 ? {} : { "content-type": "application/json", "content-length": String(body.byteLength) }
      const server = createServer((_request, response) => {
        response.writeHead(status, headers)
        response.end(body)
      })
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
