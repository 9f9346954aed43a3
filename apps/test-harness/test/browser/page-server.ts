import { readFile } from "node:fs/promises"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"

/**
 * The site a team's page lives on, another origin than Hedgerow's: an empty page, and the SDK builds
 * it may import, as a bundler would ship them inside the team's app.
 */
export interface PageServer {
  readonly origin: string
  readonly close: () => Promise<void>
}

/** Each script the page may load, by its path on the page's origin: a file, or text made for the page. */
export type Scripts = Readonly<Record<string, { readonly file: string } | { readonly text: string }>>

const PAGE = "<!doctype html><html><head><meta charset=\"utf-8\"><title>A team's page</title></head><body><p>hello</p></body></html>"

export const servePage = async (scripts: Scripts): Promise<PageServer> => {
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://page").pathname
    const script = scripts[path]
    if (path === "/") {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" })
      response.end(PAGE)
    } else if (script !== undefined) {
      ("text" in script ? Promise.resolve(script.text) : readFile(script.file)).then((text) => {
        response.writeHead(200, { "content-type": "text/javascript; charset=utf-8" })
        response.end(text)
      }, () => {
        response.writeHead(500)
        response.end()
      })
    } else {
      response.writeHead(404)
      response.end()
    }
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    // `localhost` against the API's 127.0.0.1: another site, not only another port.
    origin: `http://localhost:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve()))
  }
}
