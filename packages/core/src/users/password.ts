import { Effect } from "effect"
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto"
import { notBlank, rule, Trimmed } from "../shared/fields.ts"

/**
 * Passwords are kept as scrypt hashes (node:crypto): N = 2^15, r = 8, p = 3, one of OWASP's recommended
 * settings (32 MiB of memory per hash), a 16-byte random salt per password and a 32-byte result. The
 * stored text names its parameters, `scrypt$N$r$p$salt$hash` (base64), so they can be raised later
 * without breaking the hashes already stored.
 */
const PARAMETERS = { N: 2 ** 15, r: 8, p: 3 } as const
const SALT_BYTES = 16
const HASH_BYTES = 32

const derive = (password: string, salt: Buffer, params: { readonly N: number; readonly r: number; readonly p: number }, length: number) =>
  Effect.callback<Buffer, never>((resume) => {
    // Off the event loop (libuv's pool): a log-in must not stall every other request for its hash.
    scrypt(password, salt, length, { ...params, maxmem: 256 * params.N * params.r + 1024 * 1024 }, (error, key) =>
      resume(error === null ? Effect.succeed(key) : Effect.die(error)))
  })

/** The stored form of a new password. */
export const hashPassword = (password: string): Effect.Effect<string> => {
  const salt = randomBytes(SALT_BYTES)
  return Effect.map(derive(password, salt, PARAMETERS, HASH_BYTES), (hash) =>
    ["scrypt", PARAMETERS.N, PARAMETERS.r, PARAMETERS.p, salt.toString("base64"), hash.toString("base64")].join("$"))
}

/** A hash of no one's password, checked when there is no stored one, so that the answer takes as long either way. */
const DUMMY = `scrypt$${PARAMETERS.N}$${PARAMETERS.r}$${PARAMETERS.p}$${Buffer.alloc(SALT_BYTES).toString("base64")}$${
  Buffer.alloc(HASH_BYTES).toString("base64")
}`

interface Parsed {
  readonly params: { readonly N: number; readonly r: number; readonly p: number }
  readonly salt: Buffer
  readonly hash: Buffer
}

const parse = (stored: string): Parsed | undefined => {
  const [scheme, n, r, p, salt, hash] = stored.split("$")
  const params = { N: Number(n), r: Number(r), p: Number(p) }
  if (scheme !== "scrypt" || salt === undefined || hash === undefined) return undefined
  if (![params.N, params.r, params.p].every((value) => Number.isInteger(value) && value > 0)) return undefined
  return { params, salt: Buffer.from(salt, "base64"), hash: Buffer.from(hash, "base64") }
}

/**
 * Whether `password` is the one `stored` was made from, compared in constant time. A user without a
 * password (null) is checked against a dummy hash and never matches: the work is the same whether or not
 * the account exists or has a password, as PostHog does for an unknown user.
 */
export const verifyPassword = (password: string, stored: string | null): Effect.Effect<boolean> => {
  const parsed = parse(stored ?? DUMMY) ?? parse(DUMMY)!
  return Effect.map(derive(password, parsed.salt, parsed.params, parsed.hash.length), (candidate) =>
    stored !== null && timingSafeEqual(candidate, parsed.hash))
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
