// A shop's own Node server with Hedgerow inside it: the shop's page at /, Hedgerow's API at /hedgerow
// (for curl, scripts, `hedgerow --url` and PostHog's SDKs), and the page's flags read in this process.
// Plain JavaScript on plain Node 22: no build step.
import { createServer } from "node:http"
import { openHedgerow } from "@hedgerow/http-server"

const BASE = "/hedgerow"
const port = Number(process.env.PORT ?? 3000)
const host = process.env.HOST ?? "127.0.0.1"

// DATABASE_URL: a PostgreSQL server; else HEDGEROW_DATA_DIR, a directory of the embedded store; else memory.
const store = process.env.DATABASE_URL
  ? { databaseUrl: process.env.DATABASE_URL }
  : process.env.HEDGEROW_DATA_DIR
  ? { dataDir: process.env.HEDGEROW_DATA_DIR }
  : {}

const hedgerow = await openHedgerow({ store, basePath: BASE })

const escape = (text) =>
  String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" })[c])

/** The shop's page for a visitor (`?user=` names them): the banner shows only while `welcome-banner` is on for them. */
const page = async (url) => {
  const visitor = url.searchParams.get("user") || "guest"
  const person = { personProperties: { plan: url.searchParams.get("plan") ?? "free" } }
  const banner = await hedgerow.flags.isEnabled("welcome-banner", visitor, person)
  const text = (await hedgerow.flags.getPayload("welcome-banner", visitor, person))?.text ?? "Welcome!"
  const flags = await hedgerow.flags.getAll(visitor, person)
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>The shop</title></head>
<body>
${banner ? `<p class="banner">${escape(text)}</p>` : "<p>No banner today.</p>"}
<h1>The shop</h1>
<p>Hello, ${escape(visitor)}. Your flags:</p>
<ul>${Object.entries(flags).map(([key, value]) => `<li>${escape(key)}: ${escape(value)}</li>`).join("")}</ul>
</body></html>
`
}

const server = createServer((request, response) => {
  // Hedgerow answers below /hedgerow and hands every other request back through `next`.
  hedgerow.handler(request, response, async () => {
    const url = new URL(request.url ?? "/", "http://shop")
    if (request.method !== "GET" || url.pathname !== "/") {
      response.writeHead(404, { "content-type": "text/plain" }).end("Not found\n")
      return
    }
    try {
      const html = await page(url)
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html)
    } catch (error) {
      console.error(error)
      response.writeHead(500, { "content-type": "text/plain" }).end("Server error\n")
    }
  })
})

server.listen(port, host, () => {
  const { port: actual } = server.address()
  const shop = `http://${host}:${actual}`
  const api = `${shop}${BASE}`
  const key = hedgerow.bootstrapped?.personal_api_key
  const flags = `${api}/api/projects/${hedgerow.project.id}/feature_flags/`
  const body = JSON.stringify({
    key: "welcome-banner",
    filters: { groups: [{ properties: [], rollout_percentage: 100 }], payloads: { true: JSON.stringify({ text: "Free delivery this week" }) } }
  })
  console.log([
    `The shop is on ${shop}/ and Hedgerow's API on ${api}/ (project "${hedgerow.project.name}", id ${hedgerow.project.id}).`,
    key === undefined
      ? "The store was bootstrapped before: use the key you kept, or, with the shop stopped, make one with `hedgerow admin keys create`."
      : `First start: personal API key with scope * (shown only this once, keep it): ${key}`,
    "Turn the banner on:",
    `  curl -H "Authorization: Bearer ${key ?? "phx_…"}" -H "Content-Type: application/json" -d '${body}' ${flags}`,
    `then reload ${shop}/ . PostHog's SDKs take ${api} as their host, with the project token ${hedgerow.project.api_token}.`,
    "Ctrl-C stops the shop."
  ].join("\n"))
})

// The server first, so that its requests finish; then Hedgerow, which closes the store.
const stop = () => server.close(() => hedgerow.close())
process.once("SIGINT", stop)
process.once("SIGTERM", stop)
