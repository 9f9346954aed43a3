import type { SetCookie } from "@hedgerow/core"
import { Cookies } from "effect/http"

/** Core's cookies as effect's, `Path=/` and `SameSite=Lax` unless they say otherwise; the server and the harness render them alike. */
export const cookiesOf = (cookies: ReadonlyArray<SetCookie>): Cookies.Cookies =>
  Cookies.fromIterable(cookies.map((cookie) =>
    Cookies.makeCookieUnsafe(cookie.name, cookie.value, {
      maxAge: `${cookie.maxAge} seconds`,
      ...(cookie.maxAge === 0 ? { expires: new Date(0) } : {}),
      path: cookie.path ?? "/",
      sameSite: cookie.sameSite ?? "lax",
      httpOnly: cookie.httpOnly,
      secure: cookie.secure
    })
  ))

/** The `Set-Cookie` header values of core's cookies. */
export const setCookieHeaders = (cookies: ReadonlyArray<SetCookie>): ReadonlyArray<string> => Cookies.toSetCookieHeaders(cookiesOf(cookies))
