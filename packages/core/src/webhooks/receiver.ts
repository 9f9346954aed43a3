import { Effect } from "effect"
import { isIP } from "node:net"
import { ValidationError } from "../shared/errors.ts"
import { hostOf, isPublicAddress } from "./addresses.ts"
import type { WebhookTransport } from "./transport.ts"

const invalid = (detail: string, code = "invalid") => ValidationError.field("url", detail, code)

export const PRIVATE_ADDRESS =
  "This URL points at a loopback, link-local or private address, which webhooks may not reach on this server."

/**
 * A receiver URL as accepted: http or https, no credentials, and a host whose every address is public
 * unless the operator allows private ones. The URL parser reads decimal, hex and short IPv4 forms as the
 * address they stand for, so `http://2130706433/` is judged as 127.0.0.1.
 */
export const checkReceiverUrl = (transport: WebhookTransport["Service"], text: string, allowPrivate: boolean) =>
  Effect.gen(function*() {
    const url = URL.parse(text)
    if (url === null) return yield* invalid("Enter a valid URL.")
    if (url.protocol !== "http:" && url.protocol !== "https:") return yield* invalid("Only http and https URLs are accepted.")
    if (url.username !== "" || url.password !== "") return yield* invalid("A URL with a user name or password is not accepted.")
    if (allowPrivate) return url.href
    const host = hostOf(url)
    const addresses = isIP(host) === 0
      ? yield* transport.resolve(host).pipe(Effect.catch(() => invalid("This URL's host could not be resolved.")))
      : [host]
    if (addresses.length === 0) return yield* invalid("This URL's host could not be resolved.")
    if (!addresses.every(isPublicAddress)) return yield* invalid(PRIVATE_ADDRESS, "private_address")
    return url.href
  })
