import type * as http from "node:http"
import type { AddressInfo } from "node:net"

/** What the providers on loopback share: JSON answers, answers held back, forms read, the redirect back, start and stop. */

export const json = (response: http.ServerResponse, status: number, body: unknown, pad = 0) => {
  response.writeHead(status, { "content-type": "application/json" })
  if (pad > 0) response.write(" ".repeat(pad))
  response.end(JSON.stringify(body))
}

/** Answers after `ms` (at once when undefined, never when Infinity). */
export const later = (ms: number | undefined, answer: () => void) => {
  if (ms === Infinity) return
  if (ms === undefined) return answer()
  setTimeout(answer, ms)
}

/** The request's urlencoded body, once it has all come. */
export const formOf = (request: http.IncomingMessage): Promise<URLSearchParams> =>
  new Promise((resolve) => {
    let body = ""
    request.on("data", (chunk: Buffer) => (body += chunk.toString()))
    request.on("end", () => resolve(new URLSearchParams(body)))
  })

/** An authorization page that logs its person in at once: the browser goes back to the redirect URI with `code` and the state. */
export const sendBack = (response: http.ServerResponse, asked: URLSearchParams, code: string) => {
  const back = new URL(asked.get("redirect_uri")!)
  back.searchParams.set("code", code)
  back.searchParams.set("state", asked.get("state") ?? "")
  response.writeHead(302, { location: back.toString() })
  response.end()
}

/** Listens on a free loopback port; its base URL and how to stop it, cutting its open connections. */
export const listen = async (server: http.Server) => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
