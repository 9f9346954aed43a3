import { Context, type Effect } from "effect"
import type { SamlRejected } from "./rejected.ts"
import type { SamlResponse } from "./response.ts"

/**
 * The XML half of a SAML log-in, which an adapter does with an XML signature library: refuse anything
 * but a plain document (no DTD), check the signature against `certificate` alone (the identity
 * provider's, as its domain holds it; never a key the message carries), and read the Response only
 * from the bytes that signature covers. The one Assertion must be signed itself or inside a signed
 * Response; a message with more than one, or whose signature points anywhere else, is refused.
 */
export class SamlSignature extends Context.Service<SamlSignature, {
  readonly read: (document: string, certificate: string) => Effect.Effect<SamlResponse, SamlRejected>
}>()("hedgerow/SamlSignature") {}
