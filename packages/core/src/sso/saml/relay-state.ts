import { canonicalUuid, type DomainId } from "../../shared/ids.ts"
import { safeNextPath } from "../next-path.ts"

/**
 * RelayState as PostHog writes it: the domain's id alone, or `{"idp": id, "next": path}` when the
 * log-in should return to a page. The identity provider sends it back untouched, and unsigned.
 */
export const relayStateOf = (domain: DomainId, next: string | undefined): string =>
  next === undefined ? domain : JSON.stringify({ idp: domain, next })

/**
 * What a RelayState names: the domain (canonical id), and the page to return to when it is a safe path
 * of this site: RelayState comes back unsigned, so the `next` it carries is judged again.
 */
export const readRelayState = (relayState: string | undefined): { readonly domain: DomainId | undefined; readonly next: string | undefined } => {
  const text = relayState?.trim() ?? ""
  if (!text.startsWith("{")) return { domain: canonicalUuid(text) as DomainId | undefined, next: undefined }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return { domain: undefined, next: undefined }
  }
  const field = (name: string) =>
    typeof parsed === "object" && parsed !== null && name in parsed ? (parsed as Record<string, unknown>)[name] : undefined
  const idp = field("idp")
  const next = field("next")
  return {
    domain: typeof idp === "string" ? canonicalUuid(idp) as DomainId | undefined : undefined,
    next: typeof next === "string" ? safeNextPath(next) : undefined
  }
}
