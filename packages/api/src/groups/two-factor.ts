import { ActionSuccess, BackupCodes, TokenBody, TwoFactorSetup, TwoFactorStatus } from "@hedgerow/core"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ReadErrors, WriteErrors } from "../errors.ts"
import { Authorization } from "../security.ts"

const SESSION_ONLY = "from a logged-in session only: a personal API key is refused"
const RECENT = "a session over two hours old must log in again"

/**
 * Two-factor authentication with an authenticator app (TOTP), under PostHog's paths on `@me`: setup,
 * status, backup codes and turning it off. Logging in with a code is `POST /api/login/token/`.
 */
export class TwoFactorGroup extends HttpApiGroup.make("twoFactor")
  .add(
    HttpApiEndpoint.get("startSetup", "/api/users/@me/two_factor_start_setup/", { success: TwoFactorSetup, error: ReadErrors }).annotate(
      OpenApi.Description,
      `Start setup: a new secret (base32, and as an \`otpauth://\` address for a QR code), shown this once and held for this session for ten minutes (scope user:read; ${SESSION_ONLY})`
    ),
    HttpApiEndpoint.post("validate", "/api/users/@me/two_factor_validate/", {
      payload: TokenBody,
      success: ActionSuccess,
      error: WriteErrors
    }).annotate(
      OpenApi.Description,
      `Finish setup with \`token\`, the app's current code: two-factor authentication is on (scope user:write; ${SESSION_ONLY}; ${RECENT})`
    ),
    HttpApiEndpoint.get("status", "/api/users/@me/two_factor_status/", { success: TwoFactorStatus, error: ReadErrors }).annotate(
      OpenApi.Description,
      "Whether two-factor authentication is on, and how many backup codes are left; the codes themselves are shown only when made (scope user:read)"
    ),
    HttpApiEndpoint.post("backupCodes", "/api/users/@me/two_factor_backup_codes/", { success: BackupCodes, error: WriteErrors }).annotate(
      OpenApi.Description,
      `Five new backup codes, each good for one log-in, shown this once; the old ones stop working (scope user:write; ${SESSION_ONLY}; ${RECENT})`
    ),
    HttpApiEndpoint.post("disable", "/api/users/@me/two_factor_disable/", { success: ActionSuccess, error: WriteErrors }).annotate(
      OpenApi.Description,
      `Turn two-factor authentication off: the app, the backup codes and log-ins waiting for a code are removed (scope user:write; ${SESSION_ONLY}; ${RECENT})`
    )
  )
  .middleware(Authorization)
  .annotateMerge(OpenApi.annotations({ title: "Two-factor authentication" }))
{}

/** The second step of a password log-in for a user with two-factor authentication. No Authorization. */
export class TwoFactorLoginGroup extends HttpApiGroup.make("twoFactorLogin")
  .add(
    HttpApiEndpoint.post("token", "/api/login/token/", { payload: TokenBody, success: ActionSuccess, error: WriteErrors }).annotate(
      OpenApi.Description,
      "Finish a log-in that answered 401 `2fa_required`: `token` is the app's current code or an unused backup code, sent from the browser that gave the password (its `hedgerow_2fa_login` cookie), within ten minutes. The session then opens as at `/api/login/`. Failures pace further tries (1, 2, 4, 8 ... seconds: 400 `2fa_too_many_attempts`)"
    )
  )
  .annotateMerge(OpenApi.annotations({ title: "Two-factor log-in" }))
{}
