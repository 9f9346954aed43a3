import { assert, describe, it } from "@effect/vitest"
import { base32Decode, base32Encode } from "../src/two-factor/base32.ts"
import { BACKUP_CODE_COUNT, backupCodeHash, newBackupCodes } from "../src/two-factor/backup-codes.ts"
import { MAX_REMEMBERED_CHECKED, rememberedValuesOf } from "../src/two-factor/cookies.ts"
import { retryDelayMillis, verificationAllowed } from "../src/two-factor/throttle.ts"
import { hotp, matchingStep, newTotpSecret, otpauthUri, totpCode, totpStepAt } from "../src/two-factor/totp.ts"

/** RFC 6238's SHA-1 key: the ASCII text "12345678901234567890". */
const RFC_KEY = Buffer.from("12345678901234567890", "ascii")
const RFC_SECRET = base32Encode(RFC_KEY)

describe("base32, as RFC 4648 spells it", () => {
  it("encodes and decodes its test vectors (without padding)", () => {
    const vectors: ReadonlyArray<readonly [string, string]> = [
      ["", ""], ["f", "MY"], ["fo", "MZXQ"], ["foo", "MZXW6"], ["foob", "MZXW6YQ"], ["fooba", "MZXW6YTB"], ["foobar", "MZXW6YTBOI"]
    ]
    for (const [text, encoded] of vectors) {
      assert.strictEqual(base32Encode(Buffer.from(text)), encoded)
      assert.strictEqual(base32Decode(encoded).toString(), text)
      assert.strictEqual(base32Decode(`${encoded.toLowerCase()}===`).toString(), text, "case and padding are ignored")
    }
    assert.strictEqual(RFC_SECRET, "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
  })
})

describe("HOTP and TOTP", () => {
  it("give RFC 4226's HOTP values for counters 0 to 9", () => {
    const expected = ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"]
    assert.deepStrictEqual(expected.map((_, counter) => hotp(RFC_KEY, counter)), expected)
  })

  it("give RFC 6238's SHA-1 values (8 digits there; the 6 an app shows are their last six)", () => {
    const vectors: ReadonlyArray<readonly [number, string]> = [
      [59, "94287082"], [1111111109, "07081804"], [1111111111, "14050471"], [1234567890, "89005924"],
      [2000000000, "69279037"], [20000000000, "65353130"]
    ]
    for (const [seconds, code] of vectors) {
      assert.strictEqual(hotp(RFC_KEY, totpStepAt(seconds * 1000), 8), code)
      assert.strictEqual(totpCode(RFC_SECRET, seconds * 1000), code.slice(2))
    }
  })

  it("make new secrets of 20 random bytes, 32 base32 characters, each different", () => {
    const first = newTotpSecret()
    assert.match(first, /^[A-Z2-7]{32}$/)
    assert.strictEqual(base32Decode(first).length, 20)
    assert.notStrictEqual(newTotpSecret(), first)
  })

  it("take the code of the present step and of one step either side, no further", () => {
    const now = 1_700_000_000_000
    const step = totpStepAt(now)
    for (const offset of [-1, 0, 1]) {
      assert.strictEqual(matchingStep(RFC_SECRET, hotp(RFC_KEY, step + offset), now, null), step + offset)
    }
    for (const offset of [-2, 2]) assert.strictEqual(matchingStep(RFC_SECRET, hotp(RFC_KEY, step + offset), now, null), undefined)
  })

  it("take a code once: neither the used step nor an older one passes again", () => {
    const now = 1_700_000_000_000
    const step = totpStepAt(now)
    const code = hotp(RFC_KEY, step)
    assert.strictEqual(matchingStep(RFC_SECRET, code, now, step), undefined, "the same code again")
    assert.strictEqual(matchingStep(RFC_SECRET, hotp(RFC_KEY, step - 1), now, step), undefined, "an older code")
    assert.strictEqual(matchingStep(RFC_SECRET, hotp(RFC_KEY, step + 1), now, step), step + 1, "the next step's code still passes")
  })

  it("refuse anything but six digits without computing, however long", () => {
    const now = 1_700_000_000_000
    for (const token of ["", "12345", "1234567", "12345a", " 123456", "１２３４５６", "9".repeat(1_000_000)]) {
      assert.strictEqual(matchingStep(RFC_SECRET, token, now, null), undefined)
    }
  })

  it("name the secret, issuer and account in the otpauth address apps read", () => {
    assert.strictEqual(
      otpauthUri("JBSWY3DPEHPK3PXP", "Hedgerow", "ada+1@example.com"),
      "otpauth://totp/Hedgerow:ada%2B1%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Hedgerow&algorithm=SHA1&digits=6&period=30"
    )
  })
})

describe("guesses are paced as django-otp paces them", () => {
  it("waits 1, 2, 4, 8 ... seconds after 1, 2, 3, 4 ... failures in a row, and not at all before the first", () => {
    assert.deepStrictEqual([0, 1, 2, 3, 4, 10].map(retryDelayMillis), [0, 1000, 2000, 4000, 8000, 512_000])
    const failedAt = 1_000_000
    assert.isTrue(verificationAllowed(0, null, failedAt))
    assert.isFalse(verificationAllowed(3, failedAt, failedAt + 3999))
    assert.isTrue(verificationAllowed(3, failedAt, failedAt + 4000))
    assert.isFalse(verificationAllowed(40, failedAt, failedAt + 365 * 24 * 3600 * 1000), "a long run of failures waits for years")
  })
})

describe("backup codes", () => {
  it("come five at a time, eight lower-case base32 characters each, all different, stored by a hash of either case", () => {
    const codes = newBackupCodes()
    assert.strictEqual(codes.length, BACKUP_CODE_COUNT)
    assert.strictEqual(new Set(codes).size, BACKUP_CODE_COUNT)
    for (const code of codes) assert.match(code, /^[a-z2-7]{8}$/)
    const [code] = codes
    assert.match(backupCodeHash(code!), /^sha256\$[0-9a-f]{64}$/)
    assert.strictEqual(backupCodeHash(code!.toUpperCase()), backupCodeHash(code!))
  })
})

describe("remember-this-device cookies", () => {
  it("are read by their prefix, empty ones left out, and no more than ten of them however many come", () => {
    assert.deepStrictEqual(
      rememberedValuesOf({ "remember-cookie_a": "one", sessionid: "s", "remember-cookie_b": "", "remember-cookie_c": "two", "x-remember-cookie_d": "no" }),
      ["one", "two"]
    )
    const many = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`remember-cookie_${i}`, `value${i}`]))
    assert.strictEqual(rememberedValuesOf(many).length, MAX_REMEMBERED_CHECKED)
  })
})
