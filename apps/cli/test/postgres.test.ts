import { createDatabase, forEachBackend, testDatabaseUrl } from "@hedgerow/store/testing"
import { Effect } from "effect"
import { type AddressInfo, createServer } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { lines, runChild, runInProcess, type Serving, servingUrl, startServe, waitFor } from "./cli-runner.ts"

// Admin commands mostly run in this process (each opens and closes its own pool, as the executable would,
// without a process start-up each); one that succeeds and one that fails go through the real executable.
const admin = (args: ReadonlyArray<string>, env: Record<string, string> = {}) => Effect.runPromise(runInProcess(["admin", ...args], env))
const adminChild = (args: ReadonlyArray<string>, env: Record<string, string> = {}) => Effect.runPromise(runChild(["admin", ...args], env))

const BOOTSTRAP_KEY = /Personal API key with scope \* \(shown only this once, keep it\): (phx_\w+)/

/** A loopback port nothing listens on: taken from the system, then released. */
const closedPort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })

// Only PostgreSQL admits admin commands beside running servers (an embedded data dir is one process's:
// serve.test.ts shows the refusal), so this file registers nothing on PGlite.
forEachBackend((backend) => {
  if (backend.name !== "postgres") return
  describe("hedgerow admin on PostgreSQL while servers run", () => {
    let database: { url: string; drop: () => Promise<void> }
    let servers: ReadonlyArray<Serving> = []
    let urls: ReadonlyArray<string> = []

    beforeAll(async () => {
      database = await createDatabase(testDatabaseUrl()!, "hedgerow_cli")
      // Two servers started at once on one empty database, as two replicas of a deployment would be.
      servers = [0, 1].map(() => startServe({}, { args: ["--database-url", database.url, "--pool-size", "3"] }))
      urls = await Promise.all(servers.map(servingUrl))
      await Promise.all(servers.map((server) => waitFor(server, /Ctrl-C/)))
    })
    afterAll(async () => {
      for (const server of servers) if (server.child.exitCode === null) server.child.kill("SIGKILL")
      await Promise.all(servers.map((server) => server.exited))
      await database?.drop()
    })

    const get = (base: string, path: string, key: string) =>
      fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } }).then(async (response) => ({
        status: response.status,
        body: await response.json()
      }))

    it("two servers starting on one empty database bootstrap it once", async () => {
      const keys = servers.map((server) => BOOTSTRAP_KEY.exec(server.output())?.[1]).filter((key) => key !== undefined)
      expect(keys).toHaveLength(1)
      // That key works on both servers: they share the store.
      for (const url of urls) expect((await get(url, "/api/users/@me/", keys[0]!)).status).toBe(200)
    })

    it("users, organizations, members and keys made by admin commands are visible through both servers at once", async () => {
      const flag = ["--database-url", database.url, "--json"]
      const org = await admin(["orgs", "create", "--name", "Gamma Labs", ...flag])
      expect(org.stderr).toBe("")
      expect(org.code).toBe(0)
      const organization = JSON.parse(org.stdout).id as string

      // The same store through the environment instead of the flag, from the real executable.
      const user = await adminChild(["users", "create", "--email", "dev@gamma.example", "--json"], { DATABASE_URL: database.url })
      expect(user.stderr).toBe("")
      expect(JSON.parse(user.stdout).email).toBe("dev@gamma.example")

      const member = await admin(["members", "add", "--org", organization, "--email", "dev@gamma.example", "--level", "15", ...flag])
      expect(member.code).toBe(0)
      const made = await admin(["keys", "create", "--email", "dev@gamma.example", "--scopes", "*", ...flag])
      expect(made.code).toBe(0)
      const key = JSON.parse(made.stdout).personal_api_key as string

      const [first, second] = urls as [string, string]
      const me = await get(first, "/api/users/@me/", key)
      expect(me.status).toBe(200)
      expect(me.body.email).toBe("dev@gamma.example")
      expect(me.body.organization.id).toBe(organization)
      const listed = await get(second, "/api/organizations/", key)
      expect(listed.status).toBe(200)
      expect(listed.body.results.map((o: { name: string }) => o.name)).toEqual(["Gamma Labs"])
      const projects = await get(second, `/api/organizations/${organization}/projects/`, key)
      expect(projects.status).toBe(200)
      expect(projects.body.count).toBe(0)
    })

    it("a key restricted by the admin command is held to its scope by the servers", async () => {
      const made = await admin(
        ["keys", "create", "--email", "dev@gamma.example", "--scopes", "user:read", "--database-url", database.url, "--json"]
      )
      expect(made.code).toBe(0)
      const key = JSON.parse(made.stdout).personal_api_key as string
      for (const url of urls) {
        expect((await get(url, "/api/users/@me/", key)).status).toBe(200)
        expect((await get(url, "/api/organizations/", key)).status).toBe(403)
      }
    })

    it("both servers stop cleanly on SIGTERM", async () => {
      for (const server of servers) server.child.kill("SIGTERM")
      expect(await Promise.all(servers.map((server) => server.exited))).toEqual([0, 0])
    })
  })

  describe("a PostgreSQL URL that cannot be used", () => {
    const password = "s3cret-pw"
    let url = ""
    beforeAll(async () => {
      url = `postgres://hedgerow:${password}@127.0.0.1:${await closedPort()}/hedgerow`
    })
    const refusal = () => `error: cannot use the PostgreSQL database at ${url.replace(password, "***")}: `

    it("stops `hedgerow serve` with one line naming the URL without its password, exit 1", async () => {
      const server = startServe({}, { args: ["--database-url", url] })
      expect(await server.exited).toBe(1)
      const printed = lines(server.output())
      expect(printed).toHaveLength(1)
      expect(printed[0]!.startsWith(refusal())).toBe(true)
      expect(server.output()).not.toContain(password)
    })

    it("fails an admin command the same way, from the flag or from DATABASE_URL", async () => {
      for (const ran of [
        await admin(["users", "create", "--email", "x@example.com", "--database-url", url]),
        await adminChild(["keys", "create", "--email", "x@example.com", "--scopes", "*"], { DATABASE_URL: url })
      ]) {
        expect(ran.code).toBe(1)
        expect(ran.stdout).toBe("")
        const printed = lines(ran.stderr)
        expect(printed).toHaveLength(1)
        expect(printed[0]!.startsWith(refusal())).toBe(true)
        expect(ran.stderr).not.toContain(password)
      }
    })
  })
})
