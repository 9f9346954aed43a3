import { createServer } from "node:http"
import type { AddressInfo } from "node:net"

/**
 * Where an identity provider would be, on loopback: any GET answers a small page, so that a browser the
 * server redirected there arrives and the test reads the URL it arrived at. Nothing here judges a request.
 */
export const startStandInProvider = async () => {
  const server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" })
    response.end("<!doctype html><html lang=\"en\"><title>Identity provider</title><main><h1>Identity provider</h1></main></html>")
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
