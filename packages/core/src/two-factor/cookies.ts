import type { SetCookie } from "../sessions/cookies.ts"
import { TWO_FACTOR_WAIT_SECONDS } from "./model.ts"

/**
 * The cookie that ties a log-in waiting for its code to the browser that gave the password: HttpOnly,
 * kept as long as the wait. Only its hash is stored.
 */
export const TWO_FACTOR_COOKIE = "hedgerow_2fa_login"

export const pendingLoginCookie = (value: string, secure: boolean): SetCookie => ({
  name: TWO_FACTOR_COOKIE,
  value,
  maxAge: TWO_FACTOR_WAIT_SECONDS,
  httpOnly: true,
  secure
})

/** The waiting log-in's cookie removed, once the code has been taken. */
export const pendingLoginCleared = (secure: boolean): SetCookie => ({ ...pendingLoginCookie("", secure), maxAge: 0 })
