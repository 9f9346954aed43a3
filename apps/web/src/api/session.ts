import { request } from "./client.ts"

/**
 * Logging in and out, PostHog's console endpoints: a log-in sets the HttpOnly `sessionid` cookie and the
 * `posthog_csrftoken` cookie that `send` echoes on writes (log-out is one).
 */
export const logIn = (email: string, password: string) => request("POST", "/api/login/", { payload: { email, password } })

/**
 * The second step of a log-in that answered 401 `2fa_required`: the authenticator app's code, or a
 * backup code; the browser's `hedgerow_2fa_login` cookie names the log-in it finishes.
 */
export const logInWithCode = (token: string) => request("POST", "/api/login/token/", { payload: { token } })

export const logOut = () => request("POST", "/api/logout/")

/**
 * A one-time sign-in link's secret (the part after its `#`), which logs its user in as a password does;
 * a user with two-factor authentication is answered 401 `2fa_required`, and the code follows as above.
 */
export const logInWithLink = (token: string) => request("POST", "/api/login/link/", { payload: { token } })
