import { Effect } from "effect"
import { execFileSync, spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
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
    for (const args of [["--help"], ["flags", "list", "--help"], ["admin", "bootstrap", "--help"], ["serve", "--help"], ["keys", "create", "--help"], ["login", "--help"], ["auth", "status", "--help"], ["orgs", "delete", "--help"], ["roles", "add-member", "--help"], ["admin", "backup", "--help"], ["admin", "migrate-to-postgres", "--help"], ["admin", "users", "sign-in-link", "--help"]]) {
      const ran = run(...args)
      expect(ran.status, args.join(" ")).toBe(0)
      expect(ran.stdout, args.join(" ")).toContain("USAGE")
      expect(ran.loaded, args.join(" ")).toContain("effect")
      expect(ran.loaded.filter((name) => HEAVY.includes(name)), args.join(" ")).toEqual([])
    }
  })

  it("started by a Node older than it needs, it says in one line which it needs and how to run the project's own", () => {
    // The machine's own Node, when it is older than the project's (the one a bare `hedgerow` on the PATH meets).
    const older = ["/usr/bin/node", "/usr/local/bin/node"].find((node) =>
      existsSync(node) && Number(execFileSync(node, ["-p", "process.versions.node.split('.')[0]"], { encoding: "utf8" })) < 22
    )
    const node = older ?? process.execPath
    const ran = spawnSync(node, [bin, "flags", "list", "--json"], { cwd: cliDir, encoding: "utf8" })
    if (older === undefined) {
      // No older Node on this machine to start it with: the check must at least let this one through.
      expect(ran.stderr).not.toContain("hedgerow needs Node")
      return
    }
    expect(ran.status).toBe(1)
    expect(ran.stdout).toBe("")
    const lines = ran.stderr.split("\n").filter((line) => line !== "")
    expect(lines).toHaveLength(1)
    const line = lines[0]!
    expect(line).toMatch(new RegExp(`^error: hedgerow needs Node 22\\.19 or newer, but ${older} is Node \\d+\\.\\d+\\.\\d+; `))
    // The command it suggests is a real one: the project's Node, this executable and the same arguments.
    const suggested = /run the project's own Node: (\S+) (\S+) flags list --json \(or `npx hedgerow` in the repository\)$/.exec(line)
    expect(suggested).not.toBeNull()
    expect(suggested![2]).toBe(bin)
    const again = spawnSync(suggested![1]!, [suggested![2]!, "--version"], { cwd: cliDir, encoding: "utf8" })
    expect(again.status).toBe(0)
    expect(again.stdout).toMatch(/^hedgerow v\d/)
  })
})
