import type { HedgerowApi } from "@hedgerow/api"
import type { HttpApi, HttpApiGroup } from "effect/http-api"

/** The contract's groups, as types. */
export type ApiGroups = typeof HedgerowApi extends HttpApi.HttpApi<string, infer Groups> ? Groups : never
export type ApiGroupName = HttpApiGroup.Identifier<ApiGroups>
export type ApiGroupOf<G extends ApiGroupName> = HttpApiGroup.WithIdentifier<ApiGroups, G>

/**
 * Who a group's endpoints answer, which decides what a call to them holds (see `AccessParts`):
 * - `authenticated`: a caller, by personal API key or session cookie;
 * - `public`: anyone, with no key: the SDKs' flag evaluation and events, authorized by the body's
 *   project token, and posthog-js's remote configuration, by the path's;
 * - `session`: whoever calls, logged in or not: log-in, its precheck, log-out and invite sign-up, which
 *   read the request's session cookie themselves and may set cookies.
 */
export type Access = "authenticated" | "public" | "session"

const PUBLIC_GROUPS = ["flagEvaluation", "sdkConfig", "capture"] as const satisfies ReadonlyArray<ApiGroupName>
const SESSION_GROUPS = ["sessions", "loginPrecheck", "signup", "twoFactorLogin"] as const satisfies ReadonlyArray<ApiGroupName>

export type PublicGroupName = (typeof PUBLIC_GROUPS)[number]
export type SessionGroupName = (typeof SESSION_GROUPS)[number]
/** The groups of a caller; `system` (the health check) is no binding's: it answers on its own. */
export type AuthenticatedGroupName = Exclude<ApiGroupName, "system" | PublicGroupName | SessionGroupName>
/** Every group bound to core. */
export type BoundGroupName = AuthenticatedGroupName | PublicGroupName | SessionGroupName

export type AccessOf<G extends BoundGroupName> = G extends PublicGroupName ? "public"
  : G extends SessionGroupName ? "session"
  : "authenticated"

const isOneOf = (groups: ReadonlyArray<string>, group: string) => groups.includes(group)

/** Who a group's endpoints answer, at run time. */
export const accessOf = (group: BoundGroupName): Access =>
  isOneOf(PUBLIC_GROUPS, group) ? "public" : isOneOf(SESSION_GROUPS, group) ? "session" : "authenticated"
