import { assert, describe, it } from "@effect/vitest"
import { slugify } from "../src/organizations/model.ts"
import { pageRequest, toEnvelope } from "../src/shared/page.ts"
import { grants, isScopeGrant } from "../src/shared/scope.ts"
import { maskOf, newPersonalApiKey, newProjectToken, secureValueOf } from "../src/shared/secrets.ts"

describe("scopes", () => {
  it("`*` grants everything, write implies read, read never implies write", () => {
    assert.isTrue(grants(["*"], "project:write"))
    assert.isTrue(grants(["project:write"], "project:read"))
    assert.isTrue(grants(["project:read"], "project:read"))
    assert.isFalse(grants(["project:read"], "project:write"))
    assert.isFalse(grants(["feature_flag:write"], "project:read"))
  })
  it("accepts only `*` and <object>:<read|write>", () => {
    assert.isTrue(isScopeGrant("*"))
    assert.isTrue(isScopeGrant("organization_member:write"))
    assert.isFalse(isScopeGrant("organization_member:admin"))
    assert.isFalse(isScopeGrant("nothing:read"))
    assert.isFalse(isScopeGrant(""))
  })
})

describe("limit/offset pagination, DRF-style", () => {
  it("defaults to 100, clamps at 1000 and treats bad values leniently", () => {
    assert.deepStrictEqual(pageRequest({}), { limit: 100, offset: 0 })
    assert.deepStrictEqual(pageRequest({ limit: "5000", offset: "7" }), { limit: 1000, offset: 7 })
    assert.deepStrictEqual(pageRequest({ limit: "0", offset: "-2" }), { limit: 100, offset: 0 })
    assert.deepStrictEqual(pageRequest({ limit: "x", offset: "1e3" }), { limit: 100, offset: 0 })
  })
  it("builds absolute links that keep other parameters, dropping offset when it would be 0", () => {
    const page = (offset: number) => ({ count: 25, results: [], request: { limit: 10, offset } })
    const url = "http://h/api/x/?search=a&limit=10"
    assert.deepStrictEqual(toEnvelope(page(0), url), {
      count: 25,
      next: "http://h/api/x/?search=a&limit=10&offset=10",
      previous: null,
      results: []
    })
    assert.strictEqual(toEnvelope(page(10), url).previous, "http://h/api/x/?search=a&limit=10")
    assert.strictEqual(toEnvelope(page(20), url).previous, "http://h/api/x/?search=a&limit=10&offset=10")
    assert.strictEqual(toEnvelope(page(20), url).next, null)
  })
})

describe("secrets", () => {
  it("makes PostHog-shaped keys and tokens from a CSPRNG", () => {
    const key = newPersonalApiKey()
    assert.match(key, /^phx_[0-9A-Za-z]{43}$/)
    assert.match(newProjectToken(), /^phc_[0-9A-Za-z]{43}$/)
    assert.notStrictEqual(newPersonalApiKey(), key)
  })
  it("stores only sha256 and shows only a mask", () => {
    assert.strictEqual(secureValueOf("phx_abc"), "sha256$5e26f9f4aa7f98042e671fbaa15196a12513a2635898590230de0c25e658279e")
    assert.strictEqual(maskOf("phx_abcdefghijklmnop"), "phx_...mnop")
  })
})

describe("organization slugs", () => {
  it("are lower-case, dashed and never empty", () => {
    assert.strictEqual(slugify("Acme Corp, Ltd."), "acme-corp-ltd")
    assert.strictEqual(slugify("Crème Brûlée"), "creme-brulee")
    assert.strictEqual(slugify("!!!"), "organization")
  })
})
