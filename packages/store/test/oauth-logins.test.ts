import { assert, layer } from "@effect/vitest"
import { newPendingLogin, type PendingOAuthLogin } from "@hedgerow/core"
import { OAuthLoginRepository } from "@hedgerow/core/ports"
import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import { Hedgerow } from "../src/index.ts"
import { forEachBackend } from "../src/testing/index.ts"

const take = (pending: PendingOAuthLogin) => OAuthLoginRepository.use((r) => r.take(pending.browser_hash))

forEachBackend((backend) =>
layer(backend.on((options) => Hedgerow.layer(options)), { timeout: 60_000, excludeTestServices: true })(
  `pending OAuth log-ins on ${backend.name}`,
  (it) => {
    it.effect("are taken once, whole, by their browser's hash", () =>
      Effect.gen(function*() {
        const { pending } = newPendingLogin("gitlab", "/project/1", Date.now())
        yield* OAuthLoginRepository.use((r) => r.insert(pending))
        assert.deepStrictEqual(yield* take(pending), Option.some(pending))
        assert.isTrue(Option.isNone(yield* take(pending)))
      }))

    it.effect("are replaced under the same hash, and cleared once expired", () =>
      Effect.gen(function*() {
        const first = newPendingLogin("github", undefined, Date.now()).pending
        const again = { ...newPendingLogin("google-oauth2", undefined, Date.now()).pending, browser_hash: first.browser_hash }
        yield* OAuthLoginRepository.use((r) => r.insert(first))
        yield* OAuthLoginRepository.use((r) => r.insert(again))
        assert.deepStrictEqual(yield* take(first), Option.some(again))

        const expired = newPendingLogin("github", undefined, Date.now() - 11 * 60 * 1000).pending
        const live = newPendingLogin("github", undefined, Date.now()).pending
        yield* OAuthLoginRepository.use((r) => Effect.all([r.insert(expired), r.insert(live)]))
        yield* OAuthLoginRepository.use((r) => r.removeExpired)
        assert.isTrue(Option.isNone(yield* take(expired)))
        assert.deepStrictEqual(yield* take(live), Option.some(live))
        const sql = yield* SqlClient.SqlClient
        assert.deepStrictEqual(yield* sql`SELECT count(*)::int AS n FROM oauth_pending_logins`, [{ n: 0 }])
      }))
  }
))
