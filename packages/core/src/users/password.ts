import { Context, Effect } from "effect"
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto"
import { notBlank, rule, Trimmed } from "../shared/fields.ts"

/** The work factor of a password hash: scrypt's cost (N), block size (r) and parallelism (p). */
export interface ScryptParameters {
  readonly N: number
  readonly r: number
  readonly p: number
}

/**
 * Passwords are kept as scrypt hashes (node:crypto): N = 2^15, r = 8, p = 3, one of OWASP's recommended
 * settings (32 MiB of memory per hash), a 16-byte random salt per password and a 32-byte result. The
 * stored text names its parameters, `scrypt$N$r$p$salt$hash` (base64), so they can be raised later
 * without breaking the hashes already stored.
 */
export const OWASP_SCRYPT: ScryptParameters = { N: 2 ** 15, r: 8, p: 3 }

/**
 * About a hundredth of the work of `OWASP_SCRYPT`, for test suites that log in thousands of times
 * (HEDGEROW_INSECURE_FAST_PASSWORD_HASHING). Its stored text names these parameters, and verification
 * follows the stored text; a log-in on a server at other parameters hashes the password again.
 */
export const INSECURE_FAST_SCRYPT: ScryptParameters = { N: 2 ** 10, r: 8, p: 1 }

/** The parameters new passwords are hashed with; the services read it once, as they are built. */
export const PasswordHashing = Context.Reference<ScryptParameters>("hedgerow/PasswordHashing", { defaultValue: () => OWASP_SCRYPT })

const SALT_BYTES = 16
const HASH_BYTES = 32

const derive = (password: string, salt: Buffer, params: ScryptParameters, length: number) =>
  Effect.callback<Buffer, never>((resume) => {
    // Off the event loop (libuv's pool): a log-in must not stall every other request for its hash.
    scrypt(password, salt, length, { ...params, maxmem: 256 * params.N * params.r + 1024 * 1024 }, (error, key) =>
      resume(error === null ? Effect.succeed(key) : Effect.die(error)))
  })

const format = (params: ScryptParameters, salt: Buffer, hash: Buffer) =>
  ["scrypt", params.N, params.r, params.p, salt.toString("base64"), hash.toString("base64")].join("$")

interface Parsed {
  readonly params: ScryptParameters
  readonly salt: Buffer
  readonly hash: Buffer
}

/**
 * The largest work a stored hash may ask for: OWASP's costliest scrypt setting takes N = 2^17 (128 MiB at
 * r = 8). A stored text past these bounds, or with a salt or hash of another length, is no hash of ours
 * and matches no password: an empty hash would otherwise compare equal to an empty result.
 */
const MAX_N = 2 ** 17
const MAX_R = 16
const MAX_P = 16

const parse = (stored: string): Parsed | undefined => {
  const [scheme, n, r, p, salt, hash, ...rest] = stored.split("$")
  const params = { N: Number(n), r: Number(r), p: Number(p) }
  if (scheme !== "scrypt" || salt === undefined || hash === undefined || rest.length > 0) return undefined
  if (![params.N, params.r, params.p].every((value) => Number.isInteger(value) && value > 0)) return undefined
  if (params.N < 2 || params.N > MAX_N || (params.N & (params.N - 1)) !== 0 || params.r > MAX_R || params.p > MAX_P) return undefined
  const parsed = { params, salt: Buffer.from(salt, "base64"), hash: Buffer.from(hash, "base64") }
  return parsed.salt.length === SALT_BYTES && parsed.hash.length === HASH_BYTES ? parsed : undefined
}

export interface PasswordHasher {
  /** The stored form of a new password. */
  readonly hash: (password: string) => Effect.Effect<string>
  /**
   * Whether `password` is the one `stored` was made from, compared in constant time. A user without a
   * password (null) is checked against a dummy hash of the same parameters and never matches: the work
   * is the same whether or not the account exists or has a password, as PostHog does for an unknown user.
   */
  readonly verify: (password: string, stored: string | null) => Effect.Effect<boolean>
  /**
   * Whether a stored hash was made with other parameters than this hasher's: a log-in that has just
   * verified it hashes the password again, so that a store converges on one cost and a known e-mail's
   * check costs what an unknown one's does.
   */
  readonly outdated: (stored: string) => boolean
}

/** Hashes new passwords with `params`; verifies any stored hash with the parameters it names. */
export const passwordHasher = (params: ScryptParameters): PasswordHasher => {
  const dummy = parse(format(params, Buffer.alloc(SALT_BYTES), Buffer.alloc(HASH_BYTES)))!
  return {
    hash: (password) => {
      const salt = randomBytes(SALT_BYTES)
      return Effect.map(derive(password, salt, params, HASH_BYTES), (hash) => format(params, salt, hash))
    },
    verify: (password, stored) => {
      const parsed = (stored === null ? undefined : parse(stored)) ?? dummy
      return Effect.map(derive(password, parsed.salt, parsed.params, parsed.hash.length), (candidate) =>
        stored !== null && timingSafeEqual(candidate, parsed.hash))
    },
    outdated: (stored) => {
      const parsed = parse(stored)
      return parsed !== undefined && (parsed.params.N !== params.N || parsed.params.r !== params.r || parsed.params.p !== params.p)
    }
  }
}

/** PostHog's shortest password. */
export const PASSWORD_MIN_LENGTH = 8

/** PostHog's message for a short password, answered under `password`. */
const passwordTooShort = `This password is too short. It must contain at least ${PASSWORD_MIN_LENGTH} characters.`

/** A password as PostHog takes it: a non-blank string, trimmed. */
export const PasswordText = Trimmed.check(notBlank)

/**
 * What PostHog says of a new password, or undefined when it passes: the length rule, counted in code
 * points. PostHog also estimates the password's strength; Hedgerow does not (see docs/decisions.md).
 */
export const passwordProblem = (password: string): string | undefined =>
  [...password].length < PASSWORD_MIN_LENGTH ? passwordTooShort : undefined

/** A new password: the above, then the length rule, under PostHog's code `password_too_short`. */
export const NewPassword = PasswordText.check(rule<string>("password_too_short", passwordProblem))
