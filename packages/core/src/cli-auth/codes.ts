import { randomInt } from "node:crypto"
import { newChallenge } from "../shared/secrets.ts"

/** How long a device code, its user code and an approval live: ten minutes, as PostHog's. */
export const CLI_AUTH_EXPIRY_SECONDS = 600

/** The seconds the CLI waits between polls, as PostHog's. */
export const CLI_POLL_INTERVAL_SECONDS = 5

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
const DIGITS = "0123456789"

/** The code a person carries from the terminal to the browser, in PostHog's shape: four letters, a dash, four digits. */
export const newUserCode = (): string => {
  const pick = (alphabet: string) => alphabet[randomInt(alphabet.length)]
  const letters = Array.from({ length: 4 }, () => pick(LETTERS)).join("")
  const digits = Array.from({ length: 4 }, () => pick(DIGITS)).join("")
  return `${letters}-${digits}`
}

/** The secret only the CLI holds, which it polls with: 32 random bytes, URL-safe. */
export const newDeviceCode = (): string => newChallenge()

const USER_CODE = /^([A-Z]{4})-?([0-9]{4})$/

/**
 * A user code as typed by hand: spaces dropped and letters upper-cased, the dash optional. Anything else
 * is no user code at all (undefined), so it is never looked up.
 */
export const canonicalUserCode = (typed: string): string | undefined => {
  const match = USER_CODE.exec(typed.replace(/\s+/g, "").toUpperCase())
  return match === null ? undefined : `${match[1]}-${match[2]}`
}
