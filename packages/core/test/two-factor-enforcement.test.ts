import { assert, describe, it } from "@effect/vitest"
import { twoFactorRefusal } from "../src/two-factor/enforcement.ts"

const codeOf = (refusal: ReturnType<typeof twoFactorRefusal>) => refusal?.code

describe("an organization's two-factor rule for a session", () => {
  const enforced = { enforced: true, enabled: false }
  const withApp = { enforced: true, enabled: true }

  it("refuses nobody where the organization does not enforce it", () => {
    assert.isUndefined(twoFactorRefusal({ enforced: false, enabled: false }, false, "/api/organizations/@current/"))
  })

  it("asks a setup of a user without an app and a code of a session that passed none", () => {
    assert.strictEqual(codeOf(twoFactorRefusal(enforced, false, "/api/projects/1/feature_flags/")), "two_factor_setup_required")
    assert.strictEqual(codeOf(twoFactorRefusal(withApp, false, "/api/projects/1/feature_flags/")), "two_factor_verification_required")
    assert.strictEqual(codeOf(twoFactorRefusal(withApp, false, undefined)), "two_factor_verification_required")
  })

  it("serves a session that passed a second factor, with or without an app (an identity provider has none here)", () => {
    assert.isUndefined(twoFactorRefusal(withApp, true, "/api/projects/1/feature_flags/"))
    assert.isUndefined(twoFactorRefusal(enforced, true, "/api/projects/1/feature_flags/"))
  })

  it("leaves the user's own endpoint and the two-factor endpoints open, however the path is spelled", () => {
    for (const path of [
      "/api/users/@me/",
      "/api/users/@me",
      "/api/users/%40me/?format=json",
      "/api/users/@me/two_factor_start_setup/",
      "/api/users/@me/two_factor_validate",
      "/api/users/@me/two_factor_status/?x=1",
      "/api/users/@me/two_factor_backup_codes/",
      "/api/users/@me/two_factor_disable/"
    ]) assert.isUndefined(twoFactorRefusal(enforced, false, path), path)
    for (const path of ["/api/users/@me/two_factor_status/extra/", "/api/users/%E0%A4%A/", "/api/organizations/@current/"]) {
      assert.strictEqual(codeOf(twoFactorRefusal(enforced, false, path)), "two_factor_setup_required", path)
    }
  })
})
