import { layerPostgres, migrations } from "@hedgerow/store"
import { createDatabase, forEachBackend, testDatabaseUrl } from "@hedgerow/store/testing"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { conflict, FLAGS, linkOf } from "../src/scenarios/feature-flags-support.ts"
import { invalid, pathOf } from "../src/scenarios/scenario.ts"
import { bannerOf, type FirstStart, firstStartOf, NOT_FIRST_START } from "../src/serve-banner.ts"
import { httpTarget } from "../src/targets/http.ts"
import { type ServerProcess, startServerProcess } from "../src/targets/server-process.ts"
import type { Reply, Target } from "../src/targets/target.ts"

/** A reply's status and body: its headers (dates, request ids) differ from one answer to the next. */
const answerOf = (reply: Reply) => ({ status: reply.status, body: reply.body })

/** The 400 of a create whose key a live flag of the project already has. */
const KEY_TAKEN = invalid("key", "There is already a feature flag with this key.", "unique")

/** Each race runs this many times with fresh flags, so one lucky interleaving cannot hide a bug. */
const ROUNDS = 3
/** Requests per race, alternating between the two processes. */
const RACERS = 10

const statuses = (replies: ReadonlyArray<Reply>) => replies.map((reply) => reply.status).join(", ")

/**
 * Whether flags are in the list's default order (-created_at, then -id) as far as the answers show it:
 * their timestamps carry milliseconds while the store orders by microseconds, so among flags of one
 * millisecond the id says nothing.
 */
const newestFirst = (flags: ReadonlyArray<{ created_at: string }>) =>
  flags.every((flag, i) => i === 0 || flags[i - 1]!.created_at >= flag.created_at)

/**
 * Several stateless `hedgerow serve` processes may share one PostgreSQL database: two of them, started
 * at the same moment on an empty database, then raced against each other through real HTTP.
 */
forEachBackend((backend) => {
  if (backend.name !== "postgres") return
  describe("two hedgerow serve processes on one PostgreSQL database", () => {
    let database: { url: string; drop: () => Promise<void> } | undefined
    const servers: Array<ServerProcess> = []
    let banners: Array<string> = []
    let tenant: FirstStart
    let a: Target
    let b: Target
    /** Target i of a race: the two processes take turns. */
    const either = (i: number) => (i % 2 === 0 ? a : b)

    const createFlag = (target: Target, body: Record<string, unknown>, project = tenant.project) =>
      target.call(FLAGS.create, { key: tenant.key, params: { project_id: project }, body })
    const patchFlag = (target: Target, id: number, body: Record<string, unknown>) =>
      target.call(FLAGS.update, { key: tenant.key, params: { project_id: tenant.project, id }, body })
    const getFlag = (target: Target, id: number) =>
      target.call(FLAGS.retrieve, { key: tenant.key, params: { project_id: tenant.project, id } })

    beforeAll(async () => {
      database = await createDatabase(testDatabaseUrl()!, "hedgerow_multi")
      // The same moment, and the two ways of naming the database: the flag and the environment.
      const started = await Promise.allSettled([
        startServerProcess({ args: ["--database-url", database.url] }),
        startServerProcess({ env: { DATABASE_URL: database.url } })
      ])
      for (const result of started) if (result.status === "fulfilled") servers.push(result.value)
      const failed = started.find((result) => result.status === "rejected")
      if (failed !== undefined) throw failed.reason
      banners = await Promise.all(servers.map((server) => bannerOf(server)))
      tenant = banners.map(firstStartOf).find((start) => start !== undefined)!
      a = httpTarget("A", servers[0]!.url)
      b = httpTarget("B", servers[1]!.url)
    })

    afterAll(async () => {
      await Promise.all(servers.map((server) => server.stop()))
      await database?.drop()
    })

    it("both start at once on the empty database; exactly one bootstraps and the migrations are recorded once", async () => {
      const firstStarts = banners.map(firstStartOf)
      expect(firstStarts.filter((start) => start !== undefined), banners.join("\n---\n")).toHaveLength(1)
      expect(banners[firstStarts.indexOf(undefined)]).toContain(NOT_FIRST_START)

      // Both serve the one tenant: the key works on each, and each sees a single organization.
      for (const target of [a, b]) {
        const me = await target.call({ group: "identity", endpoint: "me" }, { key: tenant.key })
        expect([me.status, me.body.email]).toEqual([200, tenant.email])
        const organizations = await target.call({ group: "organizations", endpoint: "list" }, { key: tenant.key })
        expect(organizations.body.results.map((org: { id: string }) => org.id)).toEqual([tenant.organization])
      }

      const recorded = await Effect.runPromise(
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          return yield* sql<{ migration_id: number; name: string }>`
            SELECT migration_id, name FROM hedgerow_migrations ORDER BY migration_id`
        }).pipe(Effect.provide(layerPostgres({ url: database!.url, poolSize: 2 })))
      )
      const expected = Object.keys(migrations).map((id) => {
        const [, number, name] = /^(\d+)_(.+)$/.exec(id)!
        return { migration_id: Number(number), name }
      })
      expect(recorded.map((row) => ({ ...row }))).toEqual(expected)
    })

    it("concurrent creates of one key across both processes: exactly one 201, the others 400 unique", async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const key = `race-create-${round}`
        const replies = await Promise.all(Array.from({ length: RACERS }, (_, i) => createFlag(either(i), { key })))
        const created = replies.filter((reply) => reply.status === 201)
        expect(created, statuses(replies)).toHaveLength(1)
        for (const reply of replies.filter((r) => r.status !== 201)) expect(answerOf(reply)).toEqual({ status: 400, body: KEY_TAKEN })
        // One flag, the same one, whichever process is asked.
        for (const target of [a, b]) {
          const listed = await target.call(FLAGS.list, { key: tenant.key, params: { project_id: tenant.project }, query: { search: key } })
          expect(listed.body.results.map((flag: { id: number }) => flag.id)).toEqual([created[0]!.body.id])
        }
      }
    })

    it("concurrent PATCHes carrying the same version across both processes: exactly one 200, the others 409", async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const flag = await createFlag(a, { key: `race-patch-${round}`, name: "v1" })
        expect(flag.status).toBe(201)
        const replies = await Promise.all(
          Array.from({ length: RACERS }, (_, i) => patchFlag(either(i), flag.body.id, { name: `writer ${i}`, version: 1 }))
        )
        const winners = replies.filter((reply) => reply.status === 200)
        expect(winners, statuses(replies)).toHaveLength(1)
        for (const reply of replies.filter((r) => r.status !== 200)) expect(answerOf(reply)).toEqual({ status: 409, body: conflict(tenant.email) })
        for (const target of [a, b]) {
          const read = await getFlag(target, flag.body.id)
          expect([read.body.version, read.body.name]).toEqual([2, winners[0]!.body.name])
          // The refused PATCHes wrote nothing: the create and the one change.
          const activity = await target.call(FLAGS.activity, { key: tenant.key, params: { project_id: tenant.project, id: flag.body.id } })
          expect(activity.body.total_count).toBe(2)
        }
      }
    })

    it("a write through one process is visible through the other at once", async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const [writer, reader] = round % 2 === 0 ? [a, b] : [b, a]
        const created = await createFlag(writer, { key: `visible-${round}`, name: "first" })
        expect(created.status).toBe(201)
        expect(answerOf(await getFlag(reader, created.body.id))).toEqual({ status: 200, body: created.body })
        const patched = await patchFlag(reader, created.body.id, { name: "second", version: 1 })
        expect([patched.status, patched.body.version]).toEqual([200, 2])
        expect(answerOf(await getFlag(writer, created.body.id))).toEqual({ status: 200, body: patched.body })
      }
    })

    it("an organization deleted through one process is gone through the other within a second, its projects and flags with it", async () => {
      const founded = await a.call({ group: "organizations", endpoint: "create" }, { key: tenant.key, body: { name: "Short-lived" } })
      expect(founded.status).toBe(201)
      const org = { organization_id: founded.body.id }
      const projects = await b.call({ group: "organizationProjects", endpoint: "list" }, { key: tenant.key, params: org })
      const project = projects.body.results[0].id
      const flag = await createFlag(b, { key: "short-lived" }, project)
      expect(flag.status).toBe(201)
      // B has answered for the organization and its flags, so they are in its memory.
      expect((await b.call(FLAGS.retrieve, { key: tenant.key, params: { project_id: project, id: flag.body.id } })).status).toBe(200)
      expect((await a.call({ group: "organizations", endpoint: "destroy" }, { key: tenant.key, params: org })).status).toBe(204)
      const deadline = Date.now() + 1000
      const gone = async () => {
        const replies = await Promise.all([
          b.call({ group: "organizations", endpoint: "retrieve" }, { key: tenant.key, params: org }),
          b.call(FLAGS.list, { key: tenant.key, params: { project_id: project } }),
          b.call(FLAGS.retrieve, { key: tenant.key, params: { project_id: project, id: flag.body.id } })
        ])
        return replies.every((reply) => reply.status === 404)
      }
      while (!(await gone())) {
        expect(Date.now()).toBeLessThan(deadline)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      const listed = await b.call({ group: "organizations", endpoint: "list" }, { key: tenant.key })
      expect(listed.body.results.map((found: { id: string }) => found.id)).toEqual([tenant.organization])
    })

    describe("pagination across both processes", () => {
      const FLAG_COUNT = 45
      const LIMIT = 10
      let project: number
      /** The flags of the paging project in the list's default order. */
      let expected: Array<{ id: number; created_at: string }>

      beforeAll(async () => {
        const made = await a.call(
          { group: "organizationProjects", endpoint: "create" },
          { key: tenant.key, params: { organization_id: tenant.organization }, body: { name: "Paging" } }
        )
        expect(made.status).toBe(201)
        project = made.body.id
        // 15 at a time through both processes: many share a millisecond, the precision of the answers'
        // timestamps, so only the store itself can say their order.
        const replies: Array<Reply> = []
        for (let batch = 0; batch < FLAG_COUNT; batch += 15) {
          replies.push(...await Promise.all(
            Array.from({ length: Math.min(15, FLAG_COUNT - batch) }, (_, i) => createFlag(either(i), { key: `page-${batch + i}` }, project))
          ))
        }
        expect(replies.map((reply) => reply.status)).toEqual(replies.map(() => 201))
        // The order to expect is the store's: one page holding them all, the same through either process.
        const [fromA, fromB] = await Promise.all([a, b].map((target) =>
          target.call(FLAGS.list, { key: tenant.key, params: { project_id: project }, query: { limit: 100 } })
        ))
        expect(fromB!.body.results).toEqual(fromA!.body.results)
        expected = fromA!.body.results
        const ascending = (ids: Array<number>) => ids.sort((x, y) => x - y)
        expect(ascending(expected.map((flag) => flag.id))).toEqual(ascending(replies.map((reply) => reply.body.id)))
        expect(newestFirst(expected)).toBe(true)
      })

      /** Follows `next` from offset 0, each page asked of the other process than the last one. */
      const walk = async (onPage?: () => Promise<void>) => {
        const pages: Array<{ url: string; body: any }> = []
        let path: string | null = `/api/projects/${project}/feature_flags/?limit=${LIMIT}&offset=0`
        for (let i = 0; path !== null; i++) {
          const url: string = `${servers[i % 2]!.url}${path}`
          const response: Response = await fetch(url, { headers: { authorization: `Bearer ${tenant.key}` } })
          expect(response.status).toBe(200)
          const body: any = await response.json()
          pages.push({ url, body })
          await onPage?.()
          path = body.next === null ? null : pathOf(body.next)
        }
        return pages
      }

      it("pages with limit and offset, alternating processes, give every flag once in the default order", async () => {
        const pages = await walk()
        expect(pages).toHaveLength(Math.ceil(FLAG_COUNT / LIMIT))
        const listPath = `/api/projects/${project}/feature_flags/`
        pages.forEach(({ url, body }, i) => {
          const offset = i * LIMIT
          const origin = new URL(url).origin
          expect(body.count).toBe(FLAG_COUNT)
          // Absolute links to the process that answered, with PostHog's rules: `previous` drops offset 0.
          for (const link of [body.next, body.previous]) if (link !== null) expect(new URL(link).origin).toBe(origin)
          expect(linkOf(body.next)).toEqual(
            offset + LIMIT < FLAG_COUNT ? { path: listPath, query: { limit: String(LIMIT), offset: String(offset + LIMIT) } } : null
          )
          expect(linkOf(body.previous)).toEqual(
            offset === 0
              ? null
              : offset - LIMIT > 0
              ? { path: listPath, query: { limit: String(LIMIT), offset: String(offset - LIMIT) } }
              : { path: listPath, query: { limit: String(LIMIT) } }
          )
        })
        const walked = pages.flatMap(({ body }) => body.results.map((flag: { id: number }) => flag.id))
        expect(walked).toEqual(expected.map((flag) => flag.id))
      })

      /**
       * While a writer adds flags, offset pages cannot be a snapshot: each new flag sorts first and pushes
       * the others one place on, so a later page may repeat the tail of the one before. What must hold:
       * every flag that existed before the walk is seen (none is skipped), their first sightings come in
       * the store's order, each page is newest first, `count` never shrinks, and the repeats are no more
       * than the flags added meanwhile.
       */
      it("a walk while another writer adds flags skips none of the flags that existed before it", async () => {
        let added = 0
        let writing = true
        // At most as many flags as the walk has pages' worth of: a writer faster than the walker would push
        // the last page on for ever.
        const writer = (async () => {
          for (let n = 0; writing && n < FLAG_COUNT; n++) {
            const reply = await createFlag(either(n), { key: `page-during-${n}` }, project)
            expect(reply.status).toBe(201)
            added++
          }
        })()
        // A pause per page lets the writer in between pages, where it moves the page boundaries.
        const pages = await walk(() => new Promise((resolve) => setTimeout(resolve, 30)))
        writing = false
        await writer
        expect(added).toBeGreaterThan(0)

        const before = new Set(expected.map((flag) => flag.id))
        const seen = pages.flatMap(({ body }) => body.results as Array<{ id: number; created_at: string }>)
        for (const { body } of pages) expect(newestFirst(body.results)).toBe(true)
        const counts = pages.map(({ body }) => body.count)
        expect([...counts].sort((x, y) => x - y)).toEqual(counts)
        expect(counts[0]).toBeGreaterThanOrEqual(FLAG_COUNT)
        expect(counts.at(-1)).toBeLessThanOrEqual(FLAG_COUNT + added)

        const old = seen.filter((flag) => before.has(flag.id)).map((flag) => flag.id)
        const firstSightings = [...new Set(old)]
        expect(firstSightings).toEqual(expected.map((flag) => flag.id))
        expect(old.length - firstSightings.length).toBeLessThanOrEqual(added)
      })
    })
  })
})
