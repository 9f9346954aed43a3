import { Clock, Context, Effect, Layer, Option } from "effect"
import type { UserActor } from "./actor.ts"
import type { MembershipLevels } from "../members/model.ts"
import { RateLimiter } from "./throttle.ts"
import { AuthenticationError, PermissionDenied, type Throttled } from "../shared/errors.ts"
import { secureValueOf } from "../shared/secrets.ts"
import { SiteSettings, siteOrigin } from "../shared/site.ts"
import { millisOf, type Timestamp, timestampFromDate } from "../shared/time.ts"
import { PersonalApiKeyRepository } from "../personal-api-keys/repository.ts"
import { csrfFailure } from "../sessions/csrf.ts"
import { isSessionKey } from "../sessions/keys.ts"
import { SessionRepository } from "../sessions/repository.ts"
import type { SessionRequest } from "../sessions/request.ts"
import { twoFactorRefusal } from "../two-factor/enforcement.ts"
import { Freshness } from "../read-model/freshness.ts"
import { memoized } from "../read-model/memoized.ts"
import { READS } from "../read-model/watched.ts"

/** A holder's levels by organization, made once per holder read from the store (a holder served from memory is the same object each time). */
const levelMaps = new WeakMap<MembershipLevels, UserActor["memberships"]>()
const levelsByOrganization = (memberships: MembershipLevels) => {
  let levels = levelMaps.get(memberships)
  if (levels === undefined) {
    levels = new Map(memberships.map((m) => [m.organization_id, m.level]))
    levelMaps.set(memberships, levels)
  }
  return levels
}

/** PostHog records `last_used_at` at most once an hour, so reads stay reads. */
const LAST_USED_RESOLUTION_MS = 60 * 60 * 1000

/** A key's `last_used_at` in milliseconds, 0 for a key never used. */
const usedMillis = (at: Timestamp | null): number => (at === null ? 0 : millisOf(at))

/**
 * Finds the calling user: from a bearer credential (else a 401), or from a session cookie (else nobody).
 * What a key or a session holds (its user, scopes, restrictions and memberships) is served from memory
 * while the read model is fresh (see Freshness), so a request whose credential is there touches no
 * database. An unknown credential is always looked up in the store.
 */
export class Authentication extends Context.Service<Authentication, {
  readonly authenticate: (credential: string | undefined) => Effect.Effect<UserActor, AuthenticationError | Throttled>
  /**
   * The user logged in with the request's `sessionid` cookie, or none when it names no live session of
   * an active user (PostHog then treats the caller as anonymous). A write authenticated by the session
   * but sent without the CSRF token is refused, as PostHog refuses it.
   */
  readonly session: (request: SessionRequest) => Effect.Effect<Option.Option<UserActor>, PermissionDenied>
  /**
   * The caller of an authenticated endpoint, found as PostHog finds it: a bearer key decides alone (a bad
   * one is a 401 whatever cookies come with it); without one, the request's session (read only then);
   * without either, 401. A session whose user's current organization enforces two-factor authentication
   * is refused (403) until it has passed a second factor, but for the paths left open for setting one up.
   */
  readonly caller: (
    credential: string | undefined,
    request: () => SessionRequest
  ) => Effect.Effect<UserActor, AuthenticationError | PermissionDenied | Throttled>
}>()("hedgerow/Authentication") {
  static readonly layerNoDeps = Layer.effect(
    Authentication,
    Effect.gen(function*() {
      const keys = yield* PersonalApiKeyRepository
      const limiter = yield* RateLimiter
      const freshness = yield* Freshness
      const holderOf = memoized(freshness, keys.findHolder, { name: "key_holders", reads: READS.keyHolder })
      /**
       * Each key's `last_used_at` as this process last wrote or read it, with its time in milliseconds: a
       * key noted within the hour is not written again, and a holder read before this process's write
       * was heard of (the change feed brings it a moment later) still shows that write.
       */
      const touched = new Map<string, { readonly millis: number; readonly at: Timestamp }>()

      // Untraced, as every function on the read path: a traced one captures a stack and opens a span on
      // each call, a cost every request would pay ("The hot path" in docs/decisions.md).
      const authenticate = Effect.fnUntraced(function*(credential: string | undefined) {
        const token = credential?.trim() ?? ""
        if (token === "") return yield* AuthenticationError.missing()
        const secureValue = secureValueOf(token)
        // The lookup compares hashes, never the key itself, so its timing tells nothing about any key.
        const holder = yield* holderOf(secureValue).pipe(Effect.map(Option.filter((found) => found.user.is_active)))
        if (Option.isNone(holder)) return yield* AuthenticationError.invalidKey()
        const { key, user, memberships } = holder.value
        yield* limiter.admit(key.id)
        const now = yield* Clock.currentTimeMillis
        let used = key
        // One indexed UPDATE an hour per key and process. The note is taken first, so requests that arrive
        // meanwhile do not write it again. The stored time is parsed only when this process has no recent
        // note, or when the holder's time differs from the note's (a holder read before the write, or
        // another process's later write, which is then noted).
        const noted = touched.get(key.id)
        if (noted === undefined || now - noted.millis > LAST_USED_RESOLUTION_MS) {
          const stored = usedMillis(key.last_used_at)
          if (now - stored <= LAST_USED_RESOLUTION_MS) {
            touched.set(key.id, { millis: stored, at: key.last_used_at! })
          } else {
            const at = timestampFromDate(new Date(now))
            touched.set(key.id, { millis: now, at })
            yield* keys.touch(key.id, at)
            used = { ...key, last_used_at: at }
          }
        } else if (key.last_used_at !== noted.at) {
          const stored = usedMillis(key.last_used_at)
          if (stored < noted.millis) used = { ...key, last_used_at: noted.at }
          else touched.set(key.id, { millis: stored, at: key.last_used_at! })
        }
        return {
          _tag: "User",
          user,
          key: used,
          memberships: levelsByOrganization(memberships)
        } satisfies UserActor
      })
      const sessions = yield* SessionRepository
      const site = siteOrigin(yield* SiteSettings)
      const sessionHolderOf = memoized(freshness, sessions.findHolder, { name: "session_holders", reads: READS.sessionHolder })

      /** The session's user; with `enforce`, refused as the organization's two-factor rule says (see twoFactorRefusal). */
      const sessionUser = Effect.fnUntraced(function*(request: SessionRequest, enforce: boolean) {
        const key = request.sessionKey ?? ""
        if (!isSessionKey(key)) return Option.none<UserActor>()
        const holder = yield* sessionHolderOf(secureValueOf(key))
        const now = yield* Clock.currentTimeMillis
        if (Option.isNone(holder) || !holder.value.user.is_active || millisOf(holder.value.session.expires_at) <= now) {
          return Option.none<UserActor>()
        }
        const refused = csrfFailure(request, site)
        if (refused !== undefined) return yield* new PermissionDenied({ detail: `CSRF Failed: ${refused}` })
        const { session: found, user, memberships, two_factor } = holder.value
        if (enforce) {
          const unverified = twoFactorRefusal(two_factor, found.two_factor_verified, request.path)
          if (unverified !== undefined) return yield* unverified
        }
        return Option.some<UserActor>({
          _tag: "User",
          user,
          key: { _tag: "Session", session_id: found.id, created_at: found.created_at, scopes: ["*"], scoped_organizations: [], scoped_teams: [] },
          memberships: levelsByOrganization(memberships)
        })
      })

      // Log-in, log-out, sign-up and SSO read the session only to know who is there, never to serve them.
      const session = (request: SessionRequest) => sessionUser(request, false)

      const caller = (credential: string | undefined, request: () => SessionRequest) =>
        (credential ?? "").trim() !== ""
          ? authenticate(credential)
          : Effect.flatMap(sessionUser(request(), true), Option.match({
            onNone: () => Effect.fail(AuthenticationError.missing()),
            onSome: Effect.succeed
          }))

      return Authentication.of({ authenticate, session, caller })
    })
  )
}
