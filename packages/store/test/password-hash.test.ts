import { assert, layer } from "@effect/vitest"
import { systemActor, UserService } from "@hedgerow/core"
import { UserRepository } from "@hedgerow/core/ports"
import { Effect, Option } from "effect"
import { Hedgerow } from "../src/index.ts"
import { forEachBackend } from "../src/testing/index.ts"

forEachBackend((backend) =>
  layer(backend.on((options) => Hedgerow.layer(options)), { timeout: 60_000, excludeTestServices: true })(
    `a user's stored password hash on ${backend.name}`,
    (it) => {
      it.effect("is replaced by a log-in's rehash only while it is still the one the log-in checked", () =>
        Effect.gen(function*() {
          const email = `rehash-${Date.now()}@example.com`
          const user = yield* UserService.use((s) => s.create(systemActor, { email }))
          const users = yield* UserRepository
          const hashOf = users.findCredentials(email).pipe(Effect.map((found) => Option.getOrThrow(found).password_hash))
          yield* users.setPasswordHash(user.id, "scrypt$first")
          yield* users.replacePasswordHash(user.id, "scrypt$first", "scrypt$second")
          assert.strictEqual(yield* hashOf, "scrypt$second")
          // A password changed since the log-in read the hash stays changed.
          yield* users.replacePasswordHash(user.id, "scrypt$first", "scrypt$third")
          assert.strictEqual(yield* hashOf, "scrypt$second")
        }))
    }
  )
)
