import { request } from "./client.ts"

/**
 * Logging in and out, PostHog's console endpoints: a log-in sets the HttpOnly `sessionid` cookie and the
 * `posthog_csrftoken` cookie that `send` echoes on writes (log-out is one).
 */
export const logIn = (email: string, password: string) => request("POST", "/api/login/", { payload: { email, password } })

export const logOut = () => request("POST", "/api/logout/")
