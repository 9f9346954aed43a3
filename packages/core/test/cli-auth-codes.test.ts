import { describe, expect, it } from "vitest"
import { canonicalUserCode, newDeviceCode, newUserCode } from "../src/cli-auth/codes.ts"
import { cliKeyLabel } from "../src/cli-auth/label.ts"
import { characters } from "../src/shared/fields.ts"

describe("the CLI log-in's codes", () => {
  it("user codes are four letters, a dash and four digits; device codes 32 random bytes, URL-safe", () => {
    const users = new Set(Array.from({ length: 200 }, newUserCode))
    for (const code of users) expect(code).toMatch(/^[A-Z]{4}-[0-9]{4}$/)
    expect(users.size).toBeGreaterThan(190)
    const devices = new Set(Array.from({ length: 50 }, newDeviceCode))
    for (const code of devices) expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(devices.size).toBe(50)
  })

  it("a user code typed by hand is read without spaces, in upper case, the dash optional; anything else is none", () => {
    for (const typed of ["ABCD-1234", "abcd-1234", "abcd1234", " AbCd 1234 ", "ab cd-12 34"]) expect(canonicalUserCode(typed)).toBe("ABCD-1234")
    for (const typed of ["", "ABCD-123", "ABC-1234", "1234-ABCD", "ABCD--1234", "ABCD_1234", "ÄBCD-1234", "ABCD-１２３４", "ABCD-1234\u0000"]) {
      expect(canonicalUserCode(typed), typed).toBeUndefined()
    }
  })
})

describe("the CLI key's label", () => {
  const at = new Date("2026-03-04T05:06:59.999Z")

  it("is PostHog's form, in UTC to the minute", () => {
    expect(cliKeyLabel("Default", at)).toBe("CLI - Default - 2026-03-04 05:06")
  })

  it("holds 40 characters at most, the project's name cut, never inside a character", () => {
    expect(cliKeyLabel("A project with a rather long name", at)).toBe("CLI - A project with  - 2026-03-04 05:06")
    const emoji = cliKeyLabel("🌳".repeat(30), at)
    expect(characters(emoji)).toBe(40)
    expect(emoji).toBe(`CLI - ${"🌳".repeat(15)} - 2026-03-04 05:06`)
    expect(cliKeyLabel("", at)).toBe("CLI -  - 2026-03-04 05:06")
  })
})
