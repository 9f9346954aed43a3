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

/**
 * PostHog's remember-this-device cookies: each named with this prefix and a random id, set when a code
 * finishes a log-in, so that this browser's next password log-ins for the same app ask for no code for
 * thirty days. Only a hash of the value is stored.
 */
export const REMEMBER_COOKIE_PREFIX = "remember-cookie_"
export const REMEMBER_DEVICE_SECONDS = 30 * 24 * 60 * 60

export const rememberDeviceCookie = (id: string, value: string, secure: boolean): SetCookie => ({
  name: `${REMEMBER_COOKIE_PREFIX}${id}`,
  value,
  maxAge: REMEMBER_DEVICE_SECONDS,
  httpOnly: true,
  secure
})

/** A request's remember-this-device cookies' values, at most this many of them looked at. */
export const MAX_REMEMBERED_CHECKED = 10

export const rememberedValuesOf = (cookies: Readonly<Record<string, string | undefined>>): ReadonlyArray<string> => {
  const values: Array<string> = []
  for (const [name, value] of Object.entries(cookies)) {
    if (values.length === MAX_REMEMBERED_CHECKED) break
    if (name.startsWith(REMEMBER_COOKIE_PREFIX) && value !== undefined && value !== "") values.push(value)
  }
  return values
}
