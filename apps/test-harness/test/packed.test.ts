import { execFileSync } from "node:child_process"
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"

/**
 * The libraries as another application gets them: packed with `npm pack` (so only what `files` lists),
 * installed into a scratch app outside the workspace together with their registry dependencies, and
 * run by plain Node, which refuses to strip types inside node_modules: only the built dist/ can work.
 */

const root = fileURLToPath(new URL("../../..", import.meta.url))
const PACKAGES = ["core", "store", "api", "http-server"]
const scratch = mkdtempSync(path.join(tmpdir(), "hedgerow-packed-"))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** npm as the scripts that run this suite found it, else the one on PATH; none of the workspace's npm_* settings leak in. */
const npm = (args: ReadonlyArray<string>, cwd: string) => {
  const execPath = process.env["npm_execpath"]
  const [command, ...prefix] = execPath?.endsWith(".js") ? [process.execPath, execPath] : ["npm"]
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)))
  return execFileSync(command!, [...prefix, ...args], { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })
}

describe("the packed packages in an application outside the workspace", () => {
  it("install from their tarballs and run: in-memory store, bootstrap, read back", () => {
    const tarballs = path.join(scratch, "tarballs")
    mkdirSync(tarballs)
    npm(["pack", ...PACKAGES.flatMap((name) => ["--workspace", `@hedgerow/${name}`]), "--pack-destination", tarballs, "--loglevel=error"], root)
    const tarball = (name: string) => `file:${path.join(tarballs, `hedgerow-${name}-0.1.0.tgz`)}`
    const app = path.join(scratch, "app")
    const local = Object.fromEntries(PACKAGES.map((name) => [`@hedgerow/${name}`, tarball(name)]))
    mkdirSync(app)
    // The overrides make the packages' dependencies on each other use the tarballs too, never the registry.
    writeFileSync(
      path.join(app, "package.json"),
      JSON.stringify({ name: "scratch", private: true, type: "module", dependencies: local, overrides: local }, null, 2)
    )
    npm(["install", "--no-audit", "--no-fund", "--prefer-offline", "--ignore-scripts", "--loglevel=error"], app)

    for (const name of PACKAGES) {
      const installed = path.join(app, "node_modules", "@hedgerow", name)
      expect(existsSync(path.join(installed, "src")), `${name} ships no sources`).toBe(false)
      const exported = JSON.parse(readFileSync(path.join(installed, "package.json"), "utf8")).exports as Record<string, { types: string }>
      for (const [subpath, target] of Object.entries(exported)) {
        expect(existsSync(path.join(installed, target.types)), `${name} ${subpath} has its declarations`).toBe(true)
      }
    }

    copyFileSync(fileURLToPath(new URL("packed/check.mjs", import.meta.url)), path.join(app, "check.mjs"))
    const output = execFileSync(process.execPath, ["check.mjs"], { cwd: app, encoding: "utf8" })
    expect(JSON.parse(output)).toEqual({
      organization: "Packed",
      owner: "packed@example.com",
      bootstrapped: true,
      api: "function",
      server: "function"
    })
  }, 180_000)
})
