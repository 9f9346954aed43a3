import { Effect } from "effect"
import { spawnSync } from "node:child_process"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { cliDir, runInProcess } from "./cli-runner.ts"

// The executable's start-up: what `--version` and `--help` load decides how fast they answer.
const bin = path.join(cliDir, "bin", "hedgerow.mjs")
const preload = path.join(cliDir, "test", "fixtures", "loaded-packages.mjs")

/** Runs the built executable under this Node and reports what it printed and which packages it loaded. */
const run = (...args: ReadonlyArray<string>) => {
  const ran = spawnSync(process.execPath, ["--import", preload, bin, ...args], { cwd: cliDir, encoding: "utf8" })
  const report = ran.stderr.split("\n").find((line) => line.startsWith("{\"loaded\""))
  return { status: ran.status, stdout: ran.stdout, loaded: (JSON.parse(report ?? "{\"loaded\":[]}") as { loaded: Array<string> }).loaded }
}

/** What a command that only describes itself must not load: core, the store, the contract, the server and their drivers. */
const HEAVY = [
  "packages/core", "packages/store", "packages/api", "apps/http-server",
  "@electric-sql/pglite", "@effect/sql-pg", "pg", "nodemailer", "redis", "@redis/client", "undici"
]

describe("hedgerow start-up", () => {
  it("--version prints effect/cli's own version line, without loading effect at all", async () => {
    const ran = run("--version")
    expect(ran.status).toBe(0)
    expect(ran.stdout).toBe((await Effect.runPromise(runInProcess(["--version"]))).stdout)
    expect(ran.loaded.filter((name) => name === "effect")).toEqual([])
  })

  it("--help describes every command without loading core, the store, the API contract or the server", () => {
    for (const args of [["--help"], ["flags", "list", "--help"], ["admin", "bootstrap", "--help"], ["serve", "--help"], ["keys", "create", "--help"], ["login", "--help"], ["auth", "status", "--help"], ["orgs", "delete", "--help"], ["roles", "add-member", "--help"]]) {
      const ran = run(...args)
      expect(ran.status, args.join(" ")).toBe(0)
      expect(ran.stdout, args.join(" ")).toContain("USAGE")
      expect(ran.loaded, args.join(" ")).toContain("effect")
      expect(ran.loaded.filter((name) => HEAVY.includes(name)), args.join(" ")).toEqual([])
    }
  })
})
