import { hash, randomBytes } from "node:crypto"

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

/** Uniform base-62 text from the system CSPRNG (bytes ≥ 248 are dropped so no character is favoured). */
export const randomBase62 = (length: number): string => {
  let out = ""
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62]
    }
  }
  return out
}

/** PostHog's token shapes: `phx_` personal API keys, `phc_` project tokens. */
export const newPersonalApiKey = (): string => `phx_${randomBase62(43)}`
export const newProjectToken = (): string => `phc_${randomBase62(43)}`

/**
 * Keys are stored only as `sha256$<hex>`, the form PostHog stores them in; unsalted, so a lookup is one
 * index probe. Every authenticated request computes it, hence the one-shot digest, which makes no hash object.
 */
export const secureValueOf = (key: string): string => `sha256$${hash("sha256", key, "hex")}`

/** `phx_...abcd`: enough to recognise a key, never enough to use it. */
export const maskOf = (key: string): string => `${key.slice(0, 4)}...${key.slice(-4)}`

/** A URL-safe verification challenge (~43 characters, like Python's token_urlsafe(32)). */
export const newChallenge = (): string => randomBytes(32).toString("base64url")
