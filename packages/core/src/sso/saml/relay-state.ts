import { canonicalUuid, type DomainId } from "../../shared/ids.ts"

/** The longest page a log-in returns to. */
const MAX_NEXT_LENGTH = 2000

/**
 * A page of this site to return to after the log-in: a path of its own (`/project/1?tab=x`), never
 * another site (`//evil.example`, `/\evil.example`, `https://…`) nor control characters. Anything else
 * is dropped and the log-in lands on `/`.
 */
export const localPath = (next: string | undefined): string | undefined => {
  if (next === undefined || next.length > MAX_NEXT_LENGTH || !next.startsWith("/")) return undefined
  if (next.startsWith("//") || next.includes("\\") || /[\u0000-\u001f\u007f]/.test(next)) return undefined
  return next
}

/**
 * RelayState as PostHog writes it: the domain's id alone, or `{"idp": id, "next": path}` when the
 * log-in should return to a page. The identity provider sends it back untouched, and unsigned.
 */
export const relayStateOf = (domain: DomainId, next: string | undefined): string =>
  next === undefined ? domain : JSON.stringify({ idp: domain, next })

/** What a RelayState names: the domain (canonical id), and the page to return to when it is a local one. */
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
    next: typeof next === "string" ? localPath(next) : undefined
  }
}
