/**
 * PostHog's bucketing hash: SHA-1 of the UTF-8 text `prefix + identifier + salt`, its first 60 bits
 * (15 hex digits) over 2^60, a number in [0, 1]. The 60-bit integer is rounded to a double once, as
 * PostHog's `u64 as f64` rounds it: the top 28 bits times 2^32 are exact, so adding the low 32 bits
 * rounds the exact sum a single time. The divisor 0xFFFFFFFFFFFFFFF is itself 2^60 as a double.
 *
 * SHA-1 is computed here rather than by node:crypto: a flags request hashes a few times per flag, and
 * a digest object and its buffers per hash cost more than the hash itself.
 */

const encoder = new TextEncoder()
let bytes = new Uint8Array(256)
const words = new Int32Array(80)

const rotate = (x: number, n: number) => (x << n) | (x >>> (32 - n))

/** The first 60 bits of the SHA-1 of `text`, over 2^60. */
const sha1Fraction = (text: string): number => {
  if (bytes.length < text.length * 3 + 72) bytes = new Uint8Array(text.length * 6 + 144)
  const length = encoder.encodeInto(text, bytes).written
  // Padding: a 1 bit, zeros, and the length in bits as a 64-bit big-endian integer, to whole blocks.
  const end = (((length + 8) >>> 6) + 1) << 6
  bytes[length] = 0x80
  bytes.fill(0, length + 1, end - 8)
  const bitsHigh = Math.floor(length / 0x20000000)
  const bitsLow = (length << 3) >>> 0
  bytes[end - 8] = bitsHigh >>> 24
  bytes[end - 7] = bitsHigh >>> 16
  bytes[end - 6] = bitsHigh >>> 8
  bytes[end - 5] = bitsHigh
  bytes[end - 4] = bitsLow >>> 24
  bytes[end - 3] = bitsLow >>> 16
  bytes[end - 2] = bitsLow >>> 8
  bytes[end - 1] = bitsLow
  let h0 = 0x67452301
  let h1 = 0xefcdab89 | 0
  let h2 = 0x98badcfe | 0
  let h3 = 0x10325476
  let h4 = 0xc3d2e1f0 | 0
  for (let block = 0; block < end; block += 64) {
    for (let t = 0; t < 16; t++) {
      const i = block + t * 4
      words[t] = (bytes[i]! << 24) | (bytes[i + 1]! << 16) | (bytes[i + 2]! << 8) | bytes[i + 3]!
    }
    for (let t = 16; t < 80; t++) words[t] = rotate(words[t - 3]! ^ words[t - 8]! ^ words[t - 14]! ^ words[t - 16]!, 1)
    let a = h0
    let b = h1
    let c = h2
    let d = h3
    let e = h4
    // The four rounds in loops of their own: no choice of function on each of the 80 steps.
    for (let t = 0; t < 20; t++) {
      const next = (rotate(a, 5) + ((b & c) | (~b & d)) + 0x5a827999 + e + words[t]!) | 0
      e = d
      d = c
      c = rotate(b, 30)
      b = a
      a = next
    }
    for (let t = 20; t < 40; t++) {
      const next = (rotate(a, 5) + (b ^ c ^ d) + 0x6ed9eba1 + e + words[t]!) | 0
      e = d
      d = c
      c = rotate(b, 30)
      b = a
      a = next
    }
    for (let t = 40; t < 60; t++) {
      const next = (rotate(a, 5) + ((b & c) | (b & d) | (c & d)) + 0x8f1bbcdc + e + words[t]!) | 0
      e = d
      d = c
      c = rotate(b, 30)
      b = a
      a = next
    }
    for (let t = 60; t < 80; t++) {
      const next = (rotate(a, 5) + (b ^ c ^ d) + 0xca62c1d6 + e + words[t]!) | 0
      e = d
      d = c
      c = rotate(b, 30)
      b = a
      a = next
    }
    h0 = (h0 + a) | 0
    h1 = (h1 + b) | 0
    h2 = (h2 + c) | 0
    h3 = (h3 + d) | 0
    h4 = (h4 + e) | 0
  }
  const high = h0 >>> 0
  const low = h1 >>> 0
  const top28 = high >>> 4
  const bottom32 = (high & 0xf) * 0x10000000 + (low >>> 4)
  return (top28 * 0x100000000 + bottom32) / 2 ** 60
}

export const bucketHash = (prefix: string, identifier: string, salt: string): number => sha1Fraction(prefix + identifier + salt)

/** The rollout (`salt` "") and variant (`salt` "variant") hash of a flag for one identifier. */
export const flagHash = (flagKey: string, identifier: string, salt: "" | "variant"): number =>
  bucketHash(`${flagKey}.`, identifier, salt)

/** The holdout hash does not depend on the flag, so one person is held out of every flag of an experiment alike. */
export const holdoutHash = (identifier: string): number => bucketHash("holdout-", identifier, "")

/** Whether a hash falls within a percentage; 100 lets everyone in without hashing. */
export const inRollout = (percentage: number, hash: () => number): boolean =>
  percentage === 100 || hash() <= percentage / 100

/** The variant whose cumulative share first exceeds the hash, or null where the shares stop short of it. */
export const variantAt = (hash: number, variants: ReadonlyArray<{ readonly key: string; readonly rollout_percentage: number }>) => {
  let boundary = 0
  for (const variant of variants) {
    boundary += variant.rollout_percentage / 100
    if (hash < boundary) return variant.key
  }
  return null
}
