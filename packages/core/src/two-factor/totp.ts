import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import { base32Decode, base32Encode } from "./base32.ts"

/**
 * Time-based one-time passwords as authenticator apps make them (RFC 6238 over RFC 4226's HOTP):
 * HMAC-SHA1, 6 digits, 30-second steps counted from the Unix epoch.
 */
export const TOTP_DIGITS = 6
export const TOTP_STEP_SECONDS = 30
/** Steps either side of the present one whose codes are still taken, for a phone's clock a little off. */
export const TOTP_DRIFT_STEPS = 1

/** A new secret: 20 random bytes (SHA-1's own size), in base32 as apps take it, 32 characters. */
export const newTotpSecret = (): string => base32Encode(randomBytes(20))

/** RFC 4226's HOTP value of `counter` under `key`, `digits` long, with its leading zeros. */
export const hotp = (key: Uint8Array, counter: number, digits: number = TOTP_DIGITS): string => {
  const message = Buffer.alloc(8)
  message.writeBigUInt64BE(BigInt(counter))
  const mac = createHmac("sha1", key).update(message).digest()
  const offset = mac[mac.length - 1]! & 0x0f
  const value = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!
  return String(value % 10 ** digits).padStart(digits, "0")
}

/** The step a moment falls in. */
export const totpStepAt = (millis: number): number => Math.floor(millis / 1000 / TOTP_STEP_SECONDS)

/** The code an app shows at `millis` for a base32 secret. */
export const totpCode = (secret: string, millis: number): string => hotp(base32Decode(secret), totpStepAt(millis))

/** Whether text looks like a TOTP code at all: six ASCII digits. */
export const isTotpShaped = (token: string): boolean => /^[0-9]{6}$/.test(token)

/**
 * The step whose code `token` is, among the present step and one either side, or undefined. Steps at or
 * before `usedUpTo` are not looked at, so a code is taken once: neither it nor an older one passes
 * again. Every candidate is compared, in constant time, so the answer's timing tells nothing.
 */
export const matchingStep = (secret: string, token: string, millis: number, usedUpTo: number | null): number | undefined => {
  if (!isTotpShaped(token)) return undefined
  const key = base32Decode(secret)
  const now = totpStepAt(millis)
  const given = Buffer.from(token)
  let found: number | undefined
  for (let step = now - TOTP_DRIFT_STEPS; step <= now + TOTP_DRIFT_STEPS; step++) {
    if (usedUpTo !== null && step <= usedUpTo) continue
    if (timingSafeEqual(Buffer.from(hotp(key, step)), given) && found === undefined) found = step
  }
  return found
}

/**
 * The `otpauth://` address authenticator apps read from a QR code or a link: the secret, the issuer and
 * the account it is for, with the algorithm, digits and period spelled out.
 */
export const otpauthUri = (secret: string, issuer: string, account: string): string => {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`
  const query = new URLSearchParams({
    secret,
    issuer,
    algorithm: "SHA1",
    digits: String(TOTP_DIGITS),
    period: String(TOTP_STEP_SECONDS)
  })
  return `otpauth://totp/${label}?${query.toString()}`
}
