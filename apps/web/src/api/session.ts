import { send } from "./client.ts"

/**
 * Logging in and out, PostHog's console endpoints: a log-in sets the HttpOnly `sessionid` cookie and the
 * `posthog_csrftoken` cookie that `send` echoes on writes. packages/api declares them with the sessions
 * group; until it does, these two calls are typed here.
 */
export const logIn = (email: string, password: string): Promise<unknown> =>
  send({ method: "POST", url: "/api/login/", payload: { email, password } })

export const logOut = (): Promise<unknown> => send({ method: "POST", url: "/api/logout/" })
