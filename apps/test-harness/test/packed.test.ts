import { execFileSync, spawn } from "node:child_process"
import { once } from "node:events"
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

/**
 * The libraries as another application gets them: packed with `npm pack` (so only what `files` lists),
 * installed into a scratch app outside the workspace together with their registry dependencies, and
 * run by plain Node, which refuses to strip types inside node_modules: only the built dist/ can work.
 */

const root = fileURLToPath(new URL("../../..", import.meta.url))
const PACKAGES = ["core", "store", "api", "http-server"]
const scratch = mkdtempSync(path.join(tmpdir(), "hedgerow-packed-"))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** The environment without the workspace's npm_* settings, and without a store the environment might name. */
const cleanEnv = () =>
  Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) && key !== "DATABASE_URL" && key !== "HEDGEROW_DATA_DIR"))

/** npm as the scripts that run this suite found it, else the one on PATH. */
const npm = (args: ReadonlyArray<string>, cwd: string) => {
  const execPath = process.env["npm_execpath"]
  const [command, ...prefix] = execPath?.endsWith(".js") ? [process.execPath, execPath] : ["npm"]
  return execFileSync(command!, [...prefix, ...args], { cwd, env: cleanEnv(), encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })
}

/** Each package's tarball, packed once for the suite, as a `file:` dependency. */
let local: Record<string, string>

beforeAll(() => {
  const tarballs = path.join(scratch, "tarballs")
  mkdirSync(tarballs)
  npm(["pack", ...PACKAGES.flatMap((name) => ["--workspace", `@hedgerow/${name}`]), "--pack-destination", tarballs, "--loglevel=error"], root)
  local = Object.fromEntries(PACKAGES.map((name) => [`@hedgerow/${name}`, `file:${path.join(tarballs, `hedgerow-${name}-0.1.0.tgz`)}`]))
}, 120_000)

/**
 * Installs an app whose dependencies on the packages are their tarballs. The overrides make the packages'
 * dependencies on each other use the tarballs too, never the registry.
 */
const install = (app: string, manifest: { readonly dependencies: Record<string, string> } & Record<string, unknown>) => {
  const dependencies = Object.fromEntries(Object.entries(manifest.dependencies).map(([name, version]) => [name, local[name] ?? version]))
  writeFileSync(path.join(app, "package.json"), JSON.stringify({ ...manifest, dependencies, overrides: local }, null, 2))
  npm(["install", "--no-audit", "--no-fund", "--prefer-offline", "--ignore-scripts", "--loglevel=error"], app)
}

describe("the packed packages in an application outside the workspace", () => {
  it("install from their tarballs and run: in-memory store, bootstrap, read back", () => {
    const app = path.join(scratch, "app")
    mkdirSync(app)
    install(app, { name: "scratch", private: true, type: "module", dependencies: local })

    for (const name of PACKAGES) {
      const installed = path.join(app, "node_modules", "@hedgerow", name)
      expect(existsSync(path.join(installed, "src")), `${name} ships no sources`).toBe(false)
      const exported = JSON.parse(readFileSync(path.join(installed, "package.json"), "utf8")).exports as Record<string, { types: string } | string>
      for (const [subpath, target] of Object.entries(exported)) {
        // A module has its declarations; a folder of files (the store's empty store) has its files.
        if (typeof target === "string") expect(readdirSync(path.join(installed, path.dirname(target))), `${name} ${subpath}`).not.toEqual([])
        else expect(existsSync(path.join(installed, target.types)), `${name} ${subpath} has its declarations`).toBe(true)
      }
    }

    copyFileSync(fileURLToPath(new URL("packed/check.mjs", import.meta.url)), path.join(app, "check.mjs"))
    const output = execFileSync(process.execPath, ["check.mjs"], { cwd: app, encoding: "utf8" })
    expect(JSON.parse(output)).toEqual({
      organization: "Packed",
      owner: "packed@example.com",
      bootstrapped: true,
      madeOfEmptyStore: true,
      api: "function",
      server: "function",
      embed: "function"
    })
  }, 180_000)

  it("run the example app on plain Node: its page follows a flag made through the API it mounts", async () => {
    const app = path.join(scratch, "embedded-app")
    const example = path.join(root, "examples", "embedded-app")
    cpSync(example, app, { recursive: true, filter: (source) => !source.includes("node_modules") })
    install(app, JSON.parse(readFileSync(path.join(example, "package.json"), "utf8")))

    const child = spawn(process.execPath, ["server.mjs"], { cwd: app, env: { ...cleanEnv(), PORT: "0" }, stdio: ["ignore", "pipe", "pipe"] })
    const exited = once(child, "exit")
    let output = ""
    child.stdout.on("data", (chunk) => (output += chunk))
    child.stderr.on("data", (chunk) => (output += chunk))
    try {
      const started = Date.now()
      while (!output.includes("Ctrl-C stops the shop.")) {
        if (child.exitCode !== null || Date.now() - started > 60_000) throw new Error(`the example did not start:\n${output}`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      const [, shop, api, project] = /The shop is on (\S+)\/ and Hedgerow's API on (\S+)\/ \(project "[^"]*", id (\d+)\)/.exec(output)!
      const key = /shown only this once, keep it\): (phx_\w+)/.exec(output)![1]!
      const pageFor = async (user: string) => {
        const reply = await fetch(`${shop}/?user=${user}`)
        expect(reply.status).toBe(200)
        return reply.text()
      }
      expect(await pageFor("ann")).toContain("No banner today.")

      const created = await fetch(`${api}/api/projects/${project}/feature_flags/`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({
          key: "welcome-banner",
          filters: { groups: [{ properties: [{ key: "plan", type: "person", value: "pro" }], rollout_percentage: 100 }], payloads: { true: "{\"text\": \"Pro week\"}" } }
        })
      })
      expect(created.status).toBe(201)
      // Read in the app's own process at its next request: on for a pro visitor only.
      const pro = await (await fetch(`${shop}/?user=ann&plan=pro`)).text()
      expect(pro).toContain(`<p class="banner">Pro week</p>`)
      expect(pro).toContain("<li>welcome-banner: true</li>")
      expect(await pageFor("bob")).toContain("No banner today.")
      // Hedgerow answers below its base path only; the rest is the app's.
      expect((await fetch(`${shop}/hedgerow/api/projects/`)).status).toBe(401)
      expect(await (await fetch(`${shop}/elsewhere`)).text()).toBe("Not found\n")
    } finally {
      child.kill("SIGTERM")
    }
    const [code] = await exited
    expect(code, output).toBe(0)
  }, 180_000)
})
