/**
 * What the session rules read of a request, whichever transport carried it: the session and CSRF
 * cookies, the CSRF header, the Origin, and who sent it (for log-in throttling).
 */
export interface SessionRequest {
  readonly method: string
  /** The request's path (a query may follow), which the two-factor rule reads for the paths it leaves open. */
  readonly path?: string | undefined
  /** The `sessionid` cookie. */
  readonly sessionKey: string | undefined
  /** The `posthog_csrftoken` cookie. */
  readonly csrfCookie: string | undefined
  /** The `X-CSRFToken` header. */
  readonly csrfHeader: string | undefined
  /** The `Origin` header. */
  readonly origin: string | undefined
  /** `scheme://host[:port]` the request was addressed to, which a same-origin page's Origin names. */
  readonly ownOrigin: string | undefined
  /** The cookie of a log-in waiting for its two-factor code, when the browser has one. */
  readonly twoFactorKey?: string | undefined
  /** The values of the browser's remember-this-device cookies (see rememberedValuesOf). */
  readonly rememberedDevices?: ReadonlyArray<string> | undefined
  /** The client's address (the first X-Forwarded-For entry behind a trusted proxy). */
  readonly clientAddress: string
}
