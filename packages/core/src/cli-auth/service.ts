import { Clock, Context, Effect, Layer, Option } from "effect"
import { personalApiKeyOf, type UserActor } from "../auth/actor.ts"
import { insertKeyWithinLimit, MAX_KEYS_PER_USER, newKeySecret, tooManyKeys } from "../personal-api-keys/issue.ts"
import { PersonalApiKeyRepository } from "../personal-api-keys/repository.ts"
import { ProjectRepository } from "../projects/repository.ts"
import { type Body, type BodyError, decodeBody } from "../shared/body.ts"
import { failIfAny, NotFound, PermissionDenied, type Throttled, ValidationError } from "../shared/errors.ts"
import { MAX_SERIAL, type ProjectId } from "../shared/ids.ts"
import { secureValueOf } from "../shared/secrets.ts"
import { SiteSettings } from "../shared/site.ts"
import { millisOf, type Timestamp, timestampFromDate } from "../shared/time.ts"
import { Transactions } from "../shared/transactions.ts"
import { UserRepository } from "../users/repository.ts"
import { attemptCounter } from "../shared/attempts.ts"
import { canonicalUserCode, CLI_AUTH_EXPIRY_SECONDS, CLI_POLL_INTERVAL_SECONDS, newDeviceCode, newUserCode } from "./codes.ts"
import { cliKeyLabel } from "./label.ts"
import {
  CliAuthorizeBody,
  type CliAuthorized,
  CliPollBody,
  type CliPollAuthorized,
  type CliPollPending,
  type DeviceCodeGrant
} from "./model.ts"
import { CliAuthRepository } from "./repository.ts"

const decodeAuthorize = decodeBody(CliAuthorizeBody)
const decodePoll = decodeBody(CliPollBody)

const TEN_MINUTES = 10 * 60 * 1000
/** Wrong user codes one user may send in ten minutes. */
const WRONG_CODE_LIMIT = 10
/** Device codes one client address may ask for in ten minutes. */
const DEVICE_CODE_LIMIT = 30

/** The console's page that approves a code. */
const CLI_AUTHORIZE_PATH = "/cli/authorize"

const keyRefused = () =>
  new PermissionDenied({ detail: "Only a logged-in browser session can authorize the CLI, never a personal API key." })
/** PostHog's words for a user code that names no live authorization. */
const invalidCode = () => ValidationError.field("user_code", "User code not found or expired", "invalid_code")
const alreadyAuthorized = () =>
  ValidationError.field("user_code", "This code has already been authorized", "already_authorized")
/** PostHog's words for a device code that is unknown, expired or spent. */
const expiredToken = () => ValidationError.field(null, "Device code expired", "expired_token")
/** RFC 8628's answer to a poll sooner than the interval after the last one. */
const slowDown = () =>
  ValidationError.field(null, `Polling too fast: wait ${CLI_POLL_INTERVAL_SECONDS} seconds between polls.`, "slow_down")

const isLive = (expiresAt: Timestamp, now: number) => millisOf(expiresAt) > now

/**
 * The CLI's log-in through the browser, RFC 8628's device authorization as PostHog's CLI uses it. The CLI
 * asks for a device code (its secret) and a user code (what the person sees); a person logged in to the
 * console approves the user code for one of their projects; the CLI's next poll makes a `*` key for that
 * person and hands it over once. Both codes are stored only as hashes, everything lives ten minutes, and
 * no key exists before the poll that takes it, so no key's text is ever stored.
 */
export class CliAuthService extends Context.Service<CliAuthService, {
  /** `POST /api/cli-auth/device-code/`: a new pair of codes, asked for from `clientAddress`. */
  readonly deviceCode: (clientAddress: string) => Effect.Effect<DeviceCodeGrant, Throttled>
  /** `POST /api/cli-auth/authorize/`: the caller approves a user code for a project of theirs. */
  readonly authorize: (
    actor: UserActor,
    body: Body
  ) => Effect.Effect<CliAuthorized, PermissionDenied | NotFound | ValidationError | Throttled | BodyError>
  /** `POST /api/cli-auth/poll/`: pending, or the key this once. */
  readonly poll: (body: Body) => Effect.Effect<CliPollPending | CliPollAuthorized, ValidationError | BodyError>
}>()("hedgerow/CliAuthService") {
  static readonly layerNoDeps = Layer.effect(
    CliAuthService,
    Effect.gen(function*() {
      const requests = yield* CliAuthRepository
      const projects = yield* ProjectRepository
      const keys = yield* PersonalApiKeyRepository
      const users = yield* UserRepository
      const transactions = yield* Transactions
      const site = yield* SiteSettings
      const wrongCodes = attemptCounter(WRONG_CODE_LIMIT, TEN_MINUTES)
      const deviceCodes = attemptCounter(DEVICE_CODE_LIMIT, TEN_MINUTES)

      const deviceCode = Effect.fn("CliAuthService.deviceCode")(function*(clientAddress: string) {
        const now = yield* Clock.currentTimeMillis
        yield* failIfAny(deviceCodes.refusal(clientAddress, now))
        deviceCodes.note(clientAddress, now)
        const device_code = newDeviceCode()
        const expires_at = timestampFromDate(new Date(now + CLI_AUTH_EXPIRY_SECONDS * 1000))
        // A user code may repeat one still live (one chance in millions); another is drawn then.
        const user_code = yield* transactions.run(Effect.gen(function*() {
          yield* requests.removeExpired(timestampFromDate(new Date(now)))
          for (;;) {
            const candidate = newUserCode()
            const inserted = yield* requests.insert({
              device_code_hash: secureValueOf(device_code),
              user_code_hash: secureValueOf(candidate),
              expires_at
            })
            if (inserted) return candidate
          }
        }))
        const page = `${site.url}${CLI_AUTHORIZE_PATH}`
        return {
          device_code,
          user_code,
          verification_uri: page,
          verification_uri_complete: `${page}?code=${user_code}`,
          expires_in: CLI_AUTH_EXPIRY_SECONDS,
          interval: CLI_POLL_INTERVAL_SECONDS
        } satisfies DeviceCodeGrant
      })

      /** A project of an organization the caller belongs to; any other id is the 404 of an unknown one. */
      const projectOf = (actor: UserActor, id: number) =>
        Effect.gen(function*() {
          if (id < 1 || id > MAX_SERIAL) return yield* NotFound.default()
          const found = yield* projects.findById(id as ProjectId)
          if (Option.isNone(found) || !actor.memberships.has(found.value.organization_id)) return yield* NotFound.default()
          return found.value
        })

      const authorize = Effect.fn("CliAuthService.authorize")(function*(actor: UserActor, body: Body) {
        // A key must never mint a wider key, and the flow's key is `*`: only the person's own session may approve it.
        if (personalApiKeyOf(actor) !== undefined) return yield* keyRefused()
        const now = yield* Clock.currentTimeMillis
        const guesser = String(actor.user.id)
        yield* failIfAny(wrongCodes.refusal(guesser, now))
        const input = yield* decodeAuthorize(body)
        const project = yield* projectOf(actor, input.project_id)
        const wrongCode = Effect.suspend(() => {
          wrongCodes.note(guesser, now)
          return Effect.fail(invalidCode())
        })
        const code = canonicalUserCode(input.user_code)
        if (code === undefined) return yield* wrongCode
        return yield* transactions.run(Effect.gen(function*() {
          const found = yield* requests.findByUserCode(secureValueOf(code))
          if (Option.isNone(found) || !isLive(found.value.expires_at, now)) return yield* wrongCode
          if (found.value.approved_by !== null) return yield* alreadyAuthorized()
          // Said now, while the person is at the page; the poll counts again when it makes the key.
          if ((yield* keys.countForUser(actor.user.id)) >= MAX_KEYS_PER_USER) return yield* tooManyKeys()
          const label = cliKeyLabel(project.name, new Date(now))
          yield* requests.approve(found.value.id, { user: actor.user.id, project: project.id, label })
          return { status: "success", label } satisfies CliAuthorized
        }))
      })

      const poll = Effect.fn("CliAuthService.poll")(function*(body: Body) {
        const { device_code } = yield* decodePoll(body)
        const now = yield* Clock.currentTimeMillis
        return yield* transactions.run(Effect.gen(function*() {
          const found = yield* requests.findByDeviceCode(secureValueOf(device_code))
          if (Option.isNone(found) || !isLive(found.value.expires_at, now)) return yield* expiredToken()
          const request = found.value
          if (request.approved_by === null || request.project_id === null || request.label === null) {
            if (request.last_polled_at !== null && now - millisOf(request.last_polled_at) < CLI_POLL_INTERVAL_SECONDS * 1000) {
              return yield* slowDown()
            }
            yield* requests.notePoll(request.id, timestampFromDate(new Date(now)))
            return { status: "pending" } satisfies CliPollPending
          }
          // An approver deactivated since voids the approval: no key is made for them.
          const approver = yield* users.findById(request.approved_by)
          if (Option.isNone(approver) || !approver.value.is_active) return yield* expiredToken()
          const secret = newKeySecret()
          yield* insertKeyWithinLimit({
            user_id: request.approved_by,
            label: request.label,
            secure_value: secret.secure_value,
            mask_value: secret.mask_value,
            scopes: ["*"],
            scoped_teams: null,
            scoped_organizations: null
          }).pipe(Effect.provideService(UserRepository, users), Effect.provideService(PersonalApiKeyRepository, keys))
          // Spent: a second poll finds nothing.
          yield* requests.remove(request.id)
          return {
            status: "authorized",
            personal_api_key: secret.plain,
            label: request.label,
            project_id: String(request.project_id)
          } satisfies CliPollAuthorized
        }))
      })

      return CliAuthService.of({ deviceCode, authorize, poll })
    })
  )
}
