import { totpCode } from "@hedgerow/core"
import { expect } from "vitest"
import type { ConsoleWorld } from "./harness.ts"

/**
 * The owner turns two-factor authentication on over the API, from a session of their own. Back come the
 * app's secret, and backup codes asked for with that session (a password alone logs in no more).
 */
export const turnOnTwoFactor = async (world: ConsoleWorld): Promise<{ secret: string; backupCodes: ReadonlyArray<string> }> => {
  const loggedIn = await fetch(`${world.base}/api/login/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: world.owner.email, password: world.owner.password })
  })
  expect(loggedIn.status).toBe(200)
  const cookies = loggedIn.headers.getSetCookie().map((cookie) => cookie.split(";")[0]!)
  const csrf = cookies.find((cookie) => cookie.startsWith("posthog_csrftoken="))!.split("=")[1]!
  const headers = { cookie: cookies.join("; "), "x-csrftoken": csrf, "content-type": "application/json", origin: world.base }
  const { secret } = await (await fetch(`${world.base}/api/users/@me/two_factor_start_setup/`, { headers })).json() as { secret: string }
  const validated = await fetch(`${world.base}/api/users/@me/two_factor_validate/`, {
    method: "POST",
    headers,
    body: JSON.stringify({ token: totpCode(secret, Date.now()) })
  })
  expect(validated.status).toBe(200)
  const codes = await fetch(`${world.base}/api/users/@me/two_factor_backup_codes/`, { method: "POST", headers })
  expect(codes.status).toBe(200)
  return { secret, backupCodes: (await codes.json() as { backup_codes: ReadonlyArray<string> }).backup_codes }
}

/** A code that is not the present one (nor, but by a one-in-a-million chance, a neighbour's). */
export const wrongCode = (secret: string) => String((Number(totpCode(secret, Date.now())) + 500_000) % 1_000_000).padStart(6, "0")
