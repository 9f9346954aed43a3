import { createHmac, randomBytes } from "node:crypto"

/** Standard Webhooks secrets: `whsec_` and the base64 of the key's bytes. */
export const SECRET_PREFIX = "whsec_"
export const SECRET_BYTES = { min: 24, max: 64 } as const

export const newWebhookSecret = (): string => `${SECRET_PREFIX}${randomBytes(32).toString("base64")}`

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/

/** The key a secret stands for, or undefined when it is not a Standard Webhooks secret of a usable size. */
export const secretKeyOf = (secret: string): Buffer | undefined => {
  if (!secret.startsWith(SECRET_PREFIX)) return undefined
  const encoded = secret.slice(SECRET_PREFIX.length)
  if (encoded.length > 2 * SECRET_BYTES.max || encoded.length % 4 !== 0 || !BASE64.test(encoded)) return undefined
  const key = Buffer.from(encoded, "base64")
  return key.length >= SECRET_BYTES.min && key.length <= SECRET_BYTES.max ? key : undefined
}

/**
 * The Standard Webhooks headers of one attempt: the delivery's id, the attempt's time in seconds, and
 * `v1,` with the base64 HMAC-SHA256 of `id.timestamp.body` under the secret's key.
 */
export const signedHeaders = (secret: string, id: string, timestamp: number, body: string): Record<string, string> => {
  const key = secretKeyOf(secret) ?? Buffer.alloc(0)
  const signature = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")
  return { "webhook-id": id, "webhook-timestamp": String(timestamp), "webhook-signature": `v1,${signature}` }
}
