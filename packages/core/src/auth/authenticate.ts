import { Clock, Context, Effect, Layer, Option } from "effect"
import type { UserActor } from "./actor.ts"
import { RateLimiter } from "./throttle.ts"
import { AuthenticationError, type Throttled } from "../shared/errors.ts"
import { secureValueOf } from "../shared/secrets.ts"
import { millisOf, timestampFromDate } from "../shared/time.ts"
import { PersonalApiKeyRepository } from "../personal-api-keys/repository.ts"

/** PostHog records `last_used_at` at most once an hour, so reads stay reads. */
const LAST_USED_RESOLUTION_MS = 60 * 60 * 1000

/** Turns a bearer credential into the calling user, or a 401. */
export class Authentication extends Context.Service<Authentication, {
  readonly authenticate: (credential: string | undefined) => Effect.Effect<UserActor, AuthenticationError | Throttled>
}>()("hedgerow/Authentication") {
  static readonly layerNoDeps = Layer.effect(
    Authentication,
    Effect.gen(function*() {
      const keys = yield* PersonalApiKeyRepository
      const limiter = yield* RateLimiter
      const authenticate = Effect.fn("Authentication.authenticate")(function*(credential: string | undefined) {
        const token = credential?.trim() ?? ""
        if (token === "") return yield* AuthenticationError.missing()
        const secureValue = secureValueOf(token)
        // The lookup compares hashes, never the key itself, so its timing tells nothing about any key.
        const holder = yield* keys.findHolder(secureValue).pipe(Effect.map(Option.filter((found) => found.user.is_active)))
        if (Option.isNone(holder)) return yield* AuthenticationError.invalidKey()
        const { key, user, memberships } = holder.value
        yield* limiter.admit(key.id)
        const now = yield* Clock.currentTimeMillis
        if (key.last_used_at === null || now - millisOf(key.last_used_at) > LAST_USED_RESOLUTION_MS) {
          yield* keys.touch(key.id, timestampFromDate(new Date(now)))
        }
        return {
          _tag: "User",
          user,
          key,
          memberships: new Map(memberships.map((m) => [m.organization_id, m.level]))
        } satisfies UserActor
      })
      return Authentication.of({ authenticate })
    })
  )
}
