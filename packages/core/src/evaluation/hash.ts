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
/** The message schedule; its first 16 words are the block being hashed. */
const words = new Int32Array(80)
const state = new Int32Array(5)

const rotate = (x: number, n: number) => (x << n) | (x >>> (32 - n))

/** Mixes the block in `words[0..15]` into `state`. */
const compress = () => {
  for (let t = 16; t < 80; t++) words[t] = rotate(words[t - 3]! ^ words[t - 8]! ^ words[t - 14]! ^ words[t - 16]!, 1)
  let a = state[0]!
  let b = state[1]!
  let c = state[2]!
  let d = state[3]!
  let e = state[4]!
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
  state[0] = state[0]! + a
  state[1] = state[1]! + b
  state[2] = state[2]! + c
  state[3] = state[3]! + d
  state[4] = state[4]! + e
}

const reset = () => {
  state[0] = 0x67452301
  state[1] = 0xefcdab89
  state[2] = 0x98badcfe
  state[3] = 0x10325476
  state[4] = 0xc3d2e1f0
}

/** The first 60 bits of the digest in `state`, over 2^60. */
const fraction = (): number => {
  const high = state[0]! >>> 0
  const low = state[1]! >>> 0
  const top28 = high >>> 4
  const bottom32 = (high & 0xf) * 0x10000000 + (low >>> 4)
  return (top28 * 0x100000000 + bottom32) / 2 ** 60
}

/** The longest message that fits one block with its padding: a 1 bit and the 64-bit length. */
const ONE_BLOCK = 55

/** Puts `text` into the block's words from byte `at`, big-endian; false when a character is not ASCII. */
const putAscii = (text: string, at: number): boolean => {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code > 0x7f) return false
    const position = at + i
    words[position >> 2] |= code << (24 - ((position & 3) << 3))
  }
  return true
}

/**
 * The usual message (a flag key, a dot, an id and a salt in ASCII, 55 bytes at most) written straight
 * into the one block it takes, with neither the text joined nor encoded; undefined for any other.
 */
const oneAsciiBlock = (a: string, b: string, c: string, d: string): number | undefined => {
  const length = a.length + b.length + c.length + d.length
  if (length > ONE_BLOCK) return undefined
  words.fill(0, 0, 16)
  const ab = a.length + b.length
  if (!putAscii(a, 0) || !putAscii(b, a.length) || !putAscii(c, ab) || !putAscii(d, ab + c.length)) return undefined
  words[length >> 2] |= 0x80 << (24 - ((length & 3) << 3))
  words[15] = length << 3
  reset()
  compress()
  return fraction()
}

/** Any message: its UTF-8, padded (a 1 bit, zeros, the length in bits as a 64-bit big-endian integer) to whole blocks. */
const anyMessage = (text: string): number => {
  if (bytes.length < text.length * 3 + 72) bytes = new Uint8Array(text.length * 6 + 144)
  const length = encoder.encodeInto(text, bytes).written
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
  reset()
  for (let block = 0; block < end; block += 64) {
    for (let t = 0; t < 16; t++) {
      const i = block + t * 4
      words[t] = (bytes[i]! << 24) | (bytes[i + 1]! << 16) | (bytes[i + 2]! << 8) | bytes[i + 3]!
    }
    compress()
  }
  return fraction()
}

export const bucketHash = (prefix: string, identifier: string, salt: string): number =>
  oneAsciiBlock(prefix, "", identifier, salt) ?? anyMessage(prefix + identifier + salt)

/** The rollout (`salt` "") and variant (`salt` "variant") hash of a flag for one identifier. */
export const flagHash = (flagKey: string, identifier: string, salt: "" | "variant"): number =>
  oneAsciiBlock(flagKey, ".", identifier, salt) ?? anyMessage(`${flagKey}.${identifier}${salt}`)

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
