import { assert, describe, it } from "@effect/vitest"
import { createHash } from "node:crypto"
import { bucketHash, drawnAhead, hashAhead } from "../src/bucketing/bucket-hash.ts"
import { flagPrefix, HashPrefix, HOLDOUT_PREFIX } from "../src/bucketing/hash-prefix.ts"
import { evaluateFlags, resultsByKey } from "../src/evaluation/evaluate.ts"
import type { EvaluatedFlag } from "../src/evaluation/model.ts"
import { prepareFlags } from "../src/evaluation/prepare.ts"
import type { JsonRecord } from "../src/shared/fields.ts"
import { storedFlag } from "./stored-flag.ts"

/**
 * The hash to the bit: PostHog's published vectors (its flags service's hash tests, and the consistency
 * vectors every PostHog SDK repeats: distinct ids `distinct_id_0` to `distinct_id_999` against a 45 %
 * flag and a 55 % flag with five variants), and an independent SHA-1 on text of every kind.
 */

const flagOf = (key: string, filters: JsonRecord): EvaluatedFlag => storedFlag({ key, filters })

/** node:crypto's SHA-1 of `text`, read as the bucketing hash reads a digest. */
const reference = (text: string) => {
  const digest = createHash("sha1").update(text).digest()
  const bits = (BigInt(digest.readUInt32BE(0)) << 28n) | BigInt(digest.readUInt32BE(4) >>> 4)
  return Number(bits) / 2 ** 60
}

/** `simple-flag` (45 %) for `distinct_id_<i>`: 1 on, 0 off. */
const SIMPLE = [
  "0110100101011010001101001011000111100000011011000110000101010110101011001001010010001101101111101100",
  "1111001011100000100111001010010000000011001001100101011100010000110110101101011101001101011001111011",
  "0010100110101000000010110010100010100010010110000100000000000001101011010100011110000011100110000010",
  "1111011100101001110100011010101111100101011101011011111000001010011000101111000011001101111011100110",
  "0100100000000001100100101001000000100000000011100010100010000000100000000101011100011101011000100001",
  "0101101000100110100000011001001110001000010100010110101010010010101010011110100000100100110000111001",
  "0011110001000100111100110101001101111001001101010010000111010010010000101011001011100001101000100001",
  "1100011110110111010010111101010100110010100001010001110001011000001010011011110010010101100010110001",
  "0101101001000111000001001111100000000111001101101010001001001111001011001001101001110000010100000110",
  "1110000111101101010100001111001011000000101011001111001011001110100110001001000111101010101001001011"
].join("")

/** `multivariate-flag` (55 %) for `distinct_id_<i>`: - off, else the n-th variant. */
const MULTIVARIATE = [
  "221--21---13-121--41-3---1111113-321-3--12-112-1--11121-22321-124-111-12-3------15-212-33----3--11-3",
  "3-323--21--1----111---11-11---------111121112-2121-22-1---31--1----1-------11311--1--52-2-13153--4--",
  "--3--3-1222-1311-----1112---2--1-1--111131311233-21-21-1--151----112-233-13--1-31-311-1221---2--11-3",
  "-1-3-321--13125--1---3-21----3--3--13--1--4432135-15-111---252112--3-25-31--4--2--1412---133-111-1-1",
  "33--1--22111-51---231413-11-3113-4511---111-1121-121-12-11-1-1-1---331--2311---21-13-1---133----3441",
  "2-1-213-3-113---421--14-131--3-1-11324-1----212-1-11-1123111---3-111311215412-4---4--3---1332121-1--",
  "---11-2--1-211132--53--1---1233--1-31----41---3--21--2311-11--2323--1--1-2----1-3-1--2324111-1-2----",
  "-1-----1-2----2-1-3--13-3--2-121-----2--13-1-----12---115---1-3--2-----4212-2-2-1-11-2-1-5-11---1-13",
  "--11--5--3-31133-1-----1----2121-51--411--41-23311---111-333--11-2--2-312511-15---31124121---23--1--",
  "----11-3-1-3311-2-21---2-3-1511--1---141115---2---11--1121111131-2--323-13213--11---132111-323--31-1"
].join("")

const VARIANTS = ["first-variant", "second-variant", "third-variant", "fourth-variant", "fifth-variant"]

const valueFor = (key: string, filters: JsonRecord, distinctId: string) => {
  const result = resultsByKey(evaluateFlags(prepareFlags([flagOf(key, filters)]), { distinct_id: distinctId })).get(key)!
  return result.variant ?? result.enabled
}

describe("evaluation hash", () => {
  it("matches PostHog's holdout hash vectors exactly", () => {
    assert.strictEqual(bucketHash(HOLDOUT_PREFIX, "some_distinct_id", ""), 0.7270002403585725)
    assert.strictEqual(bucketHash(HOLDOUT_PREFIX, "test-identifier", ""), 0.4493881716040236)
    assert.strictEqual(bucketHash(HOLDOUT_PREFIX, "example_id", ""), 0.9402003475831224)
    assert.strictEqual(bucketHash(HOLDOUT_PREFIX, "example_id2", ""), 0.6292740389966519)
  })

  it("is consistent with PostHog for a simple flag over 1,000 distinct ids", () => {
    const filters = { groups: [{ properties: [], rollout_percentage: 45 }] }
    const got = Array.from({ length: 1000 }, (_, i) => (valueFor("simple-flag", filters, `distinct_id_${i}`) ? "1" : "0"))
    assert.strictEqual(got.join(""), SIMPLE)
  })

  it("is consistent with PostHog for a multivariate flag over 1,000 distinct ids", () => {
    const filters = {
      groups: [{ properties: [], rollout_percentage: 55 }],
      multivariate: {
        variants: [
          { key: "first-variant", name: "First Variant", rollout_percentage: 50 },
          { key: "second-variant", name: "Second Variant", rollout_percentage: 20 },
          { key: "third-variant", name: "Third Variant", rollout_percentage: 20 },
          { key: "fourth-variant", name: "Fourth Variant", rollout_percentage: 5 },
          { key: "fifth-variant", name: "Fifth Variant", rollout_percentage: 5 }
        ]
      }
    }
    const got = Array.from({ length: 1000 }, (_, i) => {
      const value = valueFor("multivariate-flag", filters, `distinct_id_${i}`)
      return value === false ? "-" : String(VARIANTS.indexOf(String(value)) + 1)
    })
    assert.strictEqual(got.join(""), MULTIVARIATE)
  })

  it("rolls a 30 % condition out to 30 % of 10,000 people, within 1.5 points", () => {
    const prepared = prepareFlags([flagOf("thirty", { groups: [{ properties: [], rollout_percentage: 30 }] })])
    let on = 0
    for (let i = 0; i < 10_000; i++) {
      if (resultsByKey(evaluateFlags(prepared, { distinct_id: `user-${i}@example.com` })).get("thirty")!.enabled) on++
    }
    assert.isAtLeast(on, 2_850)
    assert.isAtMost(on, 3_150)
  })

  it("is SHA-1's first 60 bits, rounded once, for text of every kind and length", () => {
    const units = ["a", "Z", "0", ".", "-", "é", "漢", "\u{1F600}", "\ud800", " ", "\n"]
    // ASCII alone takes a path of its own up to four blocks (247 bytes): lengths across every block's
    // limit (55, 119, 183, 247 bytes) and past the last.
    const ascii = units.slice(0, 5)
    let seed = 7
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648
    for (let i = 0; i < 10_000; i++) {
      const pool = i % 2 === 0 ? units : ascii
      let text = ""
      const length = Math.floor(next() * (i % 2 === 0 ? 200 : 300))
      for (let j = 0; j < length; j++) text += pool[Math.floor(next() * pool.length)]
      // Cut into prefix, identifier and salt anywhere: the hash is of their joined text.
      const [first, second] = [Math.floor(next() * (text.length + 1)), Math.floor(next() * (text.length + 1))].sort((a, b) => a - b)
      assert.strictEqual(bucketHash(new HashPrefix(text.slice(0, first)), text.slice(first, second), text.slice(second)), reference(text), JSON.stringify(text))
      // A flag's hash writes its key, the dot, the id and the salt from their own offsets.
      const [key, id] = [text.slice(0, first), text.slice(first)]
      for (const salt of ["", "variant"] as const) {
        assert.strictEqual(bucketHash(flagPrefix(key), id, salt), reference(`${key}.${id}${salt}`), JSON.stringify([key, id, salt]))
      }
    }
    assert.strictEqual(bucketHash(flagPrefix("flag"), "id", "variant"), reference("flag.idvariant"))
    // One identifier against keys of every length, as a request hashes it against every flag: it is
    // placed at each offset within a word in turn, and a new identifier, ASCII or not, replaces it.
    for (const id of ["person-3ap6IGO9Q2Ol77F0pH7D9w-0", "person-3ap6IGO9Q2Ol77F0pH7D9w-1", "persön", "a", ""]) {
      for (let length = 0; length < 70; length++) {
        const key = "k".repeat(length)
        for (const salt of ["", "variant"] as const) {
          assert.strictEqual(bucketHash(flagPrefix(key), id, salt), reference(`${key}.${id}${salt}`), JSON.stringify([key, id, salt]))
        }
        assert.strictEqual(bucketHash(new HashPrefix(key), id, ""), reference(`${key}${id}`), JSON.stringify([key, id]))
      }
    }
  })

  it("is the same drawn ahead, four at a time, as one by one", () => {
    // Keys of 0 to 249 characters put messages of one to four blocks (and longer ones, left to
    // bucketHash) side by side, with lanes left empty at the end of each block count.
    const prefixes = Array.from({ length: 250 }, (_, length) => flagPrefix("k".repeat(length)))
    for (const id of ["person-3ap6IGO9Q2Ol77F0pH7D9w-0", "a", "", "0190a4c5-7e33-7c4b-9f2d-5a6e8b1c3d4e"]) {
      for (const salt of ["", "variant"] as const) {
        hashAhead(prefixes, id, salt)
        for (const prefix of prefixes) {
          const expected = reference(`${prefix.text}${id}${salt}`)
          const drawn = drawnAhead(prefix, id, salt)
          if (prefix.text.length + id.length + salt.length <= 247) assert.strictEqual(drawn, expected, JSON.stringify([prefix.text, id, salt]))
          else assert.isUndefined(drawn)
          assert.strictEqual(bucketHash(prefix, id, salt), expected)
        }
      }
    }
    // Each salt keeps its own; another identifier, or one that is not ASCII, finds nothing drawn.
    const [prefix] = prefixes
    hashAhead([prefix!], "first", "")
    hashAhead([prefix!], "first", "variant")
    assert.strictEqual(drawnAhead(prefix!, "first", ""), reference(".first"))
    assert.strictEqual(drawnAhead(prefix!, "first", "variant"), reference(".firstvariant"))
    assert.isUndefined(drawnAhead(prefix!, "second", ""))
    hashAhead([prefix!], "persön", "")
    assert.isUndefined(drawnAhead(prefix!, "persön", ""))
    assert.strictEqual(bucketHash(prefix!, "persön", ""), reference(".persön"))
    // A draw that fails half-way leaves nothing waiting for the next one to take for its own.
    const [alice, bob] = [flagPrefix("checkout"), flagPrefix("search")]
    assert.throws(() => hashAhead([alice, undefined as unknown as HashPrefix], "alice", ""))
    hashAhead([bob], "bob", "")
    assert.strictEqual(bucketHash(alice, "bob", ""), reference("checkout.bob"))
    assert.strictEqual(drawnAhead(bob, "bob", ""), reference("search.bob"))
  })
})
