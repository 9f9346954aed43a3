import { spawn, spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import path from "node:path"

/** Debian's Prometheus (`.ci/prometheus` installs it); HEDGEROW_PROMETHEUS names another binary. */
export const PROMETHEUS = process.env["HEDGEROW_PROMETHEUS"] ?? "/usr/bin/prometheus"
/** promtool comes with the package, beside the server. */
export const PROMTOOL = path.join(path.dirname(PROMETHEUS), "promtool")

/** Refuses to run without Prometheus rather than pass without it. */
export const requirePrometheus = () => {
  if (!existsSync(PROMETHEUS) || !existsSync(PROMTOOL)) {
    throw new Error(`no Prometheus at ${PROMETHEUS}: install Debian's (apt-get install prometheus, as .ci/run does) or set HEDGEROW_PROMETHEUS`)
  }
}

/** `promtool check metrics` on an exposition: its exit code and what it said. */
export const promtoolCheck = (text: string) => {
  const result = spawnSync(PROMTOOL, ["check", "metrics"], { input: text, encoding: "utf8" })
  return { status: result.status, output: `${result.stdout}${result.stderr}` }
}

/** A port free on loopback now. */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.on("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

/** A Prometheus on loopback scraping `target` (host:port) every second, until `stop`. */
export const startPrometheus = async (target: string) => {
  requirePrometheus()
  const dir = mkdtempSync(path.join(tmpdir(), "hedgerow-prometheus-"))
  const config = path.join(dir, "prometheus.yml")
  writeFileSync(config, [
    "global:",
    "  scrape_interval: 1s",
    "  scrape_timeout: 1s",
    "scrape_configs:",
    "  - job_name: hedgerow",
    "    static_configs:",
    `      - targets: ["${target}"]`,
    ""
  ].join("\n"))
  const port = await freePort()
  const child = spawn(PROMETHEUS, [
    `--config.file=${config}`,
    `--storage.tsdb.path=${path.join(dir, "data")}`,
    `--web.listen-address=127.0.0.1:${port}`
  ], { stdio: ["ignore", "ignore", "pipe"] })
  let log = ""
  child.stderr.on("data", (chunk: Buffer) => {
    log += chunk.toString()
  })
  const url = `http://127.0.0.1:${port}`
  /** The instant vector of `query`, as Prometheus's HTTP API answers it. */
  const query = async (expression: string): Promise<Array<{ metric: Record<string, string>; value: [number, string] }>> => {
    const answer = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(expression)}`)
    const body = await answer.json() as { status: string; data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> } }
    if (body.status !== "success") throw new Error(`query ${expression} failed: ${JSON.stringify(body)}`)
    return body.data.result
  }
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve))
      child.kill("SIGTERM")
      await exited
    }
    rmSync(dir, { recursive: true, force: true })
  }
  return { url, query, stop, log: () => log }
}

/** Polls `probe` until it gives a value (not undefined), or fails after `ms`. */
export const eventually = async <A>(probe: () => Promise<A | undefined>, ms: number, what: string): Promise<A> => {
  const until = Date.now() + ms
  for (;;) {
    const value = await probe().catch(() => undefined)
    if (value !== undefined) return value
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
