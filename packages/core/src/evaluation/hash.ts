/**
 * PostHog's bucketing hash: SHA-1 of the UTF-8 text `prefix + identifier + salt`, its first 60 bits
 * (15 hex digits) over 2^60, a number in [0, 1]. The 60-bit integer is rounded to a double once, as
 * PostHog's `u64 as f64` rounds it: the top 28 bits times 2^32 are exact, so adding the low 32 bits
 * rounds the exact sum a single time. The divisor 0xFFFFFFFFFFFFFFF is itself 2^60 as a double.
 *
 * SHA-1 is computed here rather than by node:crypto: a flags request hashes a few times per flag, and
 * a digest object and its buffers per hash cost more than the hash itself. A request's hashes share
 * their identifier, so evaluation draws most of them ahead, four at a time (`hashAhead`, sha1x4.ts).
 */

import { SHA1_INITIAL, type Sha1x4, sha1x4 } from "./sha1x4.ts"

const encoder = new TextEncoder()
let bytes = new Uint8Array(256)
/** The message as big-endian words, padded to whole blocks: room for the four blocks of any ASCII message up to 247 bytes. */
const MAX_BLOCKS = 4
const message = new Int32Array(16 * MAX_BLOCKS)
const state = new Int32Array(5)

// The rounds' pieces, small enough for the compiler to inline into `compress`.
const rotl1 = (x: number) => (x << 1) | (x >>> 31)
const rotl5 = (x: number) => (x << 5) | (x >>> 27)
const rotl30 = (x: number) => (x << 30) | (x >>> 2)
const choose = (b: number, c: number, d: number) => (b & c) | (~b & d)
const parity = (b: number, c: number, d: number) => b ^ c ^ d
const majority = (b: number, c: number, d: number) => (b & c) | (b & d) | (c & d)
const K1 = 0x5a827999
const K2 = 0x6ed9eba1
const K3 = 0x8f1bbcdc
const K4 = 0xca62c1d6

/**
 * Mixes the block `message[at..at+15]` into `state`. Written out step by step: the schedule's sixteen
 * words live in local variables, rewritten in place from step 16 on, and the five working variables
 * trade roles from step to step instead of being shifted along. Measured against loops over an 80-word
 * schedule array: a two-block hash (a flag key and a uuid) 800 → 610 ns.
 */
const compress = (at: number) => {
  let w0 = message[at]!, w1 = message[at + 1]!, w2 = message[at + 2]!, w3 = message[at + 3]!
  let w4 = message[at + 4]!, w5 = message[at + 5]!, w6 = message[at + 6]!, w7 = message[at + 7]!
  let w8 = message[at + 8]!, w9 = message[at + 9]!, w10 = message[at + 10]!, w11 = message[at + 11]!
  let w12 = message[at + 12]!, w13 = message[at + 13]!, w14 = message[at + 14]!, w15 = message[at + 15]!
  let a = state[0]!, b = state[1]!, c = state[2]!, d = state[3]!, e = state[4]!
  // Steps 0 to 19.
  e = (rotl5(a) + choose(b, c, d) + K1 + e + w0) | 0; b = rotl30(b)
  d = (rotl5(e) + choose(a, b, c) + K1 + d + w1) | 0; a = rotl30(a)
  c = (rotl5(d) + choose(e, a, b) + K1 + c + w2) | 0; e = rotl30(e)
  b = (rotl5(c) + choose(d, e, a) + K1 + b + w3) | 0; d = rotl30(d)
  a = (rotl5(b) + choose(c, d, e) + K1 + a + w4) | 0; c = rotl30(c)
  e = (rotl5(a) + choose(b, c, d) + K1 + e + w5) | 0; b = rotl30(b)
  d = (rotl5(e) + choose(a, b, c) + K1 + d + w6) | 0; a = rotl30(a)
  c = (rotl5(d) + choose(e, a, b) + K1 + c + w7) | 0; e = rotl30(e)
  b = (rotl5(c) + choose(d, e, a) + K1 + b + w8) | 0; d = rotl30(d)
  a = (rotl5(b) + choose(c, d, e) + K1 + a + w9) | 0; c = rotl30(c)
  e = (rotl5(a) + choose(b, c, d) + K1 + e + w10) | 0; b = rotl30(b)
  d = (rotl5(e) + choose(a, b, c) + K1 + d + w11) | 0; a = rotl30(a)
  c = (rotl5(d) + choose(e, a, b) + K1 + c + w12) | 0; e = rotl30(e)
  b = (rotl5(c) + choose(d, e, a) + K1 + b + w13) | 0; d = rotl30(d)
  a = (rotl5(b) + choose(c, d, e) + K1 + a + w14) | 0; c = rotl30(c)
  e = (rotl5(a) + choose(b, c, d) + K1 + e + w15) | 0; b = rotl30(b)
  w0 = rotl1(w13 ^ w8 ^ w2 ^ w0); d = (rotl5(e) + choose(a, b, c) + K1 + d + w0) | 0; a = rotl30(a)
  w1 = rotl1(w14 ^ w9 ^ w3 ^ w1); c = (rotl5(d) + choose(e, a, b) + K1 + c + w1) | 0; e = rotl30(e)
  w2 = rotl1(w15 ^ w10 ^ w4 ^ w2); b = (rotl5(c) + choose(d, e, a) + K1 + b + w2) | 0; d = rotl30(d)
  w3 = rotl1(w0 ^ w11 ^ w5 ^ w3); a = (rotl5(b) + choose(c, d, e) + K1 + a + w3) | 0; c = rotl30(c)
  // Steps 20 to 39.
  w4 = rotl1(w1 ^ w12 ^ w6 ^ w4); e = (rotl5(a) + parity(b, c, d) + K2 + e + w4) | 0; b = rotl30(b)
  w5 = rotl1(w2 ^ w13 ^ w7 ^ w5); d = (rotl5(e) + parity(a, b, c) + K2 + d + w5) | 0; a = rotl30(a)
  w6 = rotl1(w3 ^ w14 ^ w8 ^ w6); c = (rotl5(d) + parity(e, a, b) + K2 + c + w6) | 0; e = rotl30(e)
  w7 = rotl1(w4 ^ w15 ^ w9 ^ w7); b = (rotl5(c) + parity(d, e, a) + K2 + b + w7) | 0; d = rotl30(d)
  w8 = rotl1(w5 ^ w0 ^ w10 ^ w8); a = (rotl5(b) + parity(c, d, e) + K2 + a + w8) | 0; c = rotl30(c)
  w9 = rotl1(w6 ^ w1 ^ w11 ^ w9); e = (rotl5(a) + parity(b, c, d) + K2 + e + w9) | 0; b = rotl30(b)
  w10 = rotl1(w7 ^ w2 ^ w12 ^ w10); d = (rotl5(e) + parity(a, b, c) + K2 + d + w10) | 0; a = rotl30(a)
  w11 = rotl1(w8 ^ w3 ^ w13 ^ w11); c = (rotl5(d) + parity(e, a, b) + K2 + c + w11) | 0; e = rotl30(e)
  w12 = rotl1(w9 ^ w4 ^ w14 ^ w12); b = (rotl5(c) + parity(d, e, a) + K2 + b + w12) | 0; d = rotl30(d)
  w13 = rotl1(w10 ^ w5 ^ w15 ^ w13); a = (rotl5(b) + parity(c, d, e) + K2 + a + w13) | 0; c = rotl30(c)
  w14 = rotl1(w11 ^ w6 ^ w0 ^ w14); e = (rotl5(a) + parity(b, c, d) + K2 + e + w14) | 0; b = rotl30(b)
  w15 = rotl1(w12 ^ w7 ^ w1 ^ w15); d = (rotl5(e) + parity(a, b, c) + K2 + d + w15) | 0; a = rotl30(a)
  w0 = rotl1(w13 ^ w8 ^ w2 ^ w0); c = (rotl5(d) + parity(e, a, b) + K2 + c + w0) | 0; e = rotl30(e)
  w1 = rotl1(w14 ^ w9 ^ w3 ^ w1); b = (rotl5(c) + parity(d, e, a) + K2 + b + w1) | 0; d = rotl30(d)
  w2 = rotl1(w15 ^ w10 ^ w4 ^ w2); a = (rotl5(b) + parity(c, d, e) + K2 + a + w2) | 0; c = rotl30(c)
  w3 = rotl1(w0 ^ w11 ^ w5 ^ w3); e = (rotl5(a) + parity(b, c, d) + K2 + e + w3) | 0; b = rotl30(b)
  w4 = rotl1(w1 ^ w12 ^ w6 ^ w4); d = (rotl5(e) + parity(a, b, c) + K2 + d + w4) | 0; a = rotl30(a)
  w5 = rotl1(w2 ^ w13 ^ w7 ^ w5); c = (rotl5(d) + parity(e, a, b) + K2 + c + w5) | 0; e = rotl30(e)
  w6 = rotl1(w3 ^ w14 ^ w8 ^ w6); b = (rotl5(c) + parity(d, e, a) + K2 + b + w6) | 0; d = rotl30(d)
  w7 = rotl1(w4 ^ w15 ^ w9 ^ w7); a = (rotl5(b) + parity(c, d, e) + K2 + a + w7) | 0; c = rotl30(c)
  // Steps 40 to 59.
  w8 = rotl1(w5 ^ w0 ^ w10 ^ w8); e = (rotl5(a) + majority(b, c, d) + K3 + e + w8) | 0; b = rotl30(b)
  w9 = rotl1(w6 ^ w1 ^ w11 ^ w9); d = (rotl5(e) + majority(a, b, c) + K3 + d + w9) | 0; a = rotl30(a)
  w10 = rotl1(w7 ^ w2 ^ w12 ^ w10); c = (rotl5(d) + majority(e, a, b) + K3 + c + w10) | 0; e = rotl30(e)
  w11 = rotl1(w8 ^ w3 ^ w13 ^ w11); b = (rotl5(c) + majority(d, e, a) + K3 + b + w11) | 0; d = rotl30(d)
  w12 = rotl1(w9 ^ w4 ^ w14 ^ w12); a = (rotl5(b) + majority(c, d, e) + K3 + a + w12) | 0; c = rotl30(c)
  w13 = rotl1(w10 ^ w5 ^ w15 ^ w13); e = (rotl5(a) + majority(b, c, d) + K3 + e + w13) | 0; b = rotl30(b)
  w14 = rotl1(w11 ^ w6 ^ w0 ^ w14); d = (rotl5(e) + majority(a, b, c) + K3 + d + w14) | 0; a = rotl30(a)
  w15 = rotl1(w12 ^ w7 ^ w1 ^ w15); c = (rotl5(d) + majority(e, a, b) + K3 + c + w15) | 0; e = rotl30(e)
  w0 = rotl1(w13 ^ w8 ^ w2 ^ w0); b = (rotl5(c) + majority(d, e, a) + K3 + b + w0) | 0; d = rotl30(d)
  w1 = rotl1(w14 ^ w9 ^ w3 ^ w1); a = (rotl5(b) + majority(c, d, e) + K3 + a + w1) | 0; c = rotl30(c)
  w2 = rotl1(w15 ^ w10 ^ w4 ^ w2); e = (rotl5(a) + majority(b, c, d) + K3 + e + w2) | 0; b = rotl30(b)
  w3 = rotl1(w0 ^ w11 ^ w5 ^ w3); d = (rotl5(e) + majority(a, b, c) + K3 + d + w3) | 0; a = rotl30(a)
  w4 = rotl1(w1 ^ w12 ^ w6 ^ w4); c = (rotl5(d) + majority(e, a, b) + K3 + c + w4) | 0; e = rotl30(e)
  w5 = rotl1(w2 ^ w13 ^ w7 ^ w5); b = (rotl5(c) + majority(d, e, a) + K3 + b + w5) | 0; d = rotl30(d)
  w6 = rotl1(w3 ^ w14 ^ w8 ^ w6); a = (rotl5(b) + majority(c, d, e) + K3 + a + w6) | 0; c = rotl30(c)
  w7 = rotl1(w4 ^ w15 ^ w9 ^ w7); e = (rotl5(a) + majority(b, c, d) + K3 + e + w7) | 0; b = rotl30(b)
  w8 = rotl1(w5 ^ w0 ^ w10 ^ w8); d = (rotl5(e) + majority(a, b, c) + K3 + d + w8) | 0; a = rotl30(a)
  w9 = rotl1(w6 ^ w1 ^ w11 ^ w9); c = (rotl5(d) + majority(e, a, b) + K3 + c + w9) | 0; e = rotl30(e)
  w10 = rotl1(w7 ^ w2 ^ w12 ^ w10); b = (rotl5(c) + majority(d, e, a) + K3 + b + w10) | 0; d = rotl30(d)
  w11 = rotl1(w8 ^ w3 ^ w13 ^ w11); a = (rotl5(b) + majority(c, d, e) + K3 + a + w11) | 0; c = rotl30(c)
  // Steps 60 to 79.
  w12 = rotl1(w9 ^ w4 ^ w14 ^ w12); e = (rotl5(a) + parity(b, c, d) + K4 + e + w12) | 0; b = rotl30(b)
  w13 = rotl1(w10 ^ w5 ^ w15 ^ w13); d = (rotl5(e) + parity(a, b, c) + K4 + d + w13) | 0; a = rotl30(a)
  w14 = rotl1(w11 ^ w6 ^ w0 ^ w14); c = (rotl5(d) + parity(e, a, b) + K4 + c + w14) | 0; e = rotl30(e)
  w15 = rotl1(w12 ^ w7 ^ w1 ^ w15); b = (rotl5(c) + parity(d, e, a) + K4 + b + w15) | 0; d = rotl30(d)
  w0 = rotl1(w13 ^ w8 ^ w2 ^ w0); a = (rotl5(b) + parity(c, d, e) + K4 + a + w0) | 0; c = rotl30(c)
  w1 = rotl1(w14 ^ w9 ^ w3 ^ w1); e = (rotl5(a) + parity(b, c, d) + K4 + e + w1) | 0; b = rotl30(b)
  w2 = rotl1(w15 ^ w10 ^ w4 ^ w2); d = (rotl5(e) + parity(a, b, c) + K4 + d + w2) | 0; a = rotl30(a)
  w3 = rotl1(w0 ^ w11 ^ w5 ^ w3); c = (rotl5(d) + parity(e, a, b) + K4 + c + w3) | 0; e = rotl30(e)
  w4 = rotl1(w1 ^ w12 ^ w6 ^ w4); b = (rotl5(c) + parity(d, e, a) + K4 + b + w4) | 0; d = rotl30(d)
  w5 = rotl1(w2 ^ w13 ^ w7 ^ w5); a = (rotl5(b) + parity(c, d, e) + K4 + a + w5) | 0; c = rotl30(c)
  w6 = rotl1(w3 ^ w14 ^ w8 ^ w6); e = (rotl5(a) + parity(b, c, d) + K4 + e + w6) | 0; b = rotl30(b)
  w7 = rotl1(w4 ^ w15 ^ w9 ^ w7); d = (rotl5(e) + parity(a, b, c) + K4 + d + w7) | 0; a = rotl30(a)
  w8 = rotl1(w5 ^ w0 ^ w10 ^ w8); c = (rotl5(d) + parity(e, a, b) + K4 + c + w8) | 0; e = rotl30(e)
  w9 = rotl1(w6 ^ w1 ^ w11 ^ w9); b = (rotl5(c) + parity(d, e, a) + K4 + b + w9) | 0; d = rotl30(d)
  w10 = rotl1(w7 ^ w2 ^ w12 ^ w10); a = (rotl5(b) + parity(c, d, e) + K4 + a + w10) | 0; c = rotl30(c)
  w11 = rotl1(w8 ^ w3 ^ w13 ^ w11); e = (rotl5(a) + parity(b, c, d) + K4 + e + w11) | 0; b = rotl30(b)
  w12 = rotl1(w9 ^ w4 ^ w14 ^ w12); d = (rotl5(e) + parity(a, b, c) + K4 + d + w12) | 0; a = rotl30(a)
  w13 = rotl1(w10 ^ w5 ^ w15 ^ w13); c = (rotl5(d) + parity(e, a, b) + K4 + c + w13) | 0; e = rotl30(e)
  w14 = rotl1(w11 ^ w6 ^ w0 ^ w14); b = (rotl5(c) + parity(d, e, a) + K4 + b + w14) | 0; d = rotl30(d)
  w15 = rotl1(w12 ^ w7 ^ w1 ^ w15); a = (rotl5(b) + parity(c, d, e) + K4 + a + w15) | 0; c = rotl30(c)
  state[0] = state[0]! + a
  state[1] = state[1]! + b
  state[2] = state[2]! + c
  state[3] = state[3]! + d
  state[4] = state[4]! + e
}

const begin = () => {
  for (let i = 0; i < 5; i++) state[i] = SHA1_INITIAL[i]!
}

/** The first 60 bits of a digest, given its first two words, over 2^60. */
const fraction = (first: number, second: number): number => {
  const high = first >>> 0
  const low = second >>> 0
  const top28 = high >>> 4
  const bottom32 = (high & 0xf) * 0x10000000 + (low >>> 4)
  return (top28 * 0x100000000 + bottom32) / 2 ** 60
}

/** The blocks a message of `length` bytes takes with its padding: a 1 bit, zeros, and its length as 64 bits. */
const blocksFor = (length: number) => ((length + 8) >>> 6) + 1

/** Puts `text` into `words` from byte `at`, big-endian; false when a character is not ASCII. */
const putAscii = (text: string, words: Int32Array, at: number): boolean => {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code > 0x7f) return false
    const position = at + i
    words[position >> 2]! |= code << (24 - ((position & 3) << 3))
  }
  return true
}

/**
 * The identifier last hashed, packed into words once for each byte offset (0 to 3 within a word) it
 * starts at, or null when it is not ASCII: a request hashes one identifier against every flag, whose
 * keys place it at various offsets.
 */
let packedText = ""
const packedIdentifier: Array<Int32Array | null | undefined> = [undefined, undefined, undefined, undefined]

/** ASCII `text` as the big-endian words it fills from byte `offset`, zeros around it; null when it is not ASCII. */
const pack = (text: string, offset: number): Int32Array | null => {
  const words = new Int32Array((offset + text.length + 3) >> 2)
  return putAscii(text, words, offset) ? words : null
}

/** ORs an ASCII `id` into `words` from byte `at` from its packed words; false when it is not ASCII. */
const putIdentifier = (id: string, words: Int32Array, at: number): boolean => {
  if (id !== packedText) {
    packedText = id
    packedIdentifier.fill(undefined)
  }
  const offset = at & 3
  const packed = packedIdentifier[offset] ??= pack(id, offset)
  if (packed === null) return false
  const first = at >> 2
  for (let k = 0; k < packed.length; k++) words[first + k]! |= packed[k]!
  return true
}

/**
 * The text a hash begins with (a flag key and its dot, or the holdout's), packed into words once: a
 * flag's prefix is the same for every person, so only the identifier and the salt are written per hash.
 * It also keeps, for each salt `hashAhead` draws (see `DRAWN_SALTS`), the hash it last drew with it and
 * that draw's number: `bucketHash` answers from them while that draw is the last for its salt.
 */
export class HashPrefix {
  readonly text: string
  /** Null when the text is not ASCII. */
  readonly words: Int32Array | null
  readonly ahead = [0, 0]
  readonly drawnIn = [0, 0]

  constructor(text: string) {
    this.text = text
    this.words = pack(text, 0)
  }
}

/** The prefix of a flag's rollout and variant hashes. */
export const flagPrefix = (flagKey: string): HashPrefix => new HashPrefix(`${flagKey}.`)

/**
 * The usual message (an ASCII prefix, identifier and salt) written straight into its blocks in `words`
 * from word `base`, with neither the text joined nor encoded: how many blocks it takes, or 0 for any
 * other.
 */
const writeAscii = (prefix: HashPrefix, id: string, salt: string, words: Int32Array, base: number): number => {
  const prefixWords = prefix.words
  if (prefixWords === null) return 0
  const at = prefix.text.length
  const length = at + id.length + salt.length
  const blocks = blocksFor(length)
  if (blocks > MAX_BLOCKS) return 0
  let k = 0
  for (; k < prefixWords.length; k++) words[base + k] = prefixWords[k]!
  for (; k < blocks << 4; k++) words[base + k] = 0
  if (!putIdentifier(id, words, (base << 2) + at) || !putAscii(salt, words, (base << 2) + at + id.length)) return 0
  const end = (base << 2) + length
  words[end >> 2] |= 0x80 << (24 - ((end & 3) << 3))
  // The length in bits; its high word stays 0 for any message that fits.
  words[base + (blocks << 4) - 1] = length << 3
  return blocks
}

const asciiMessage = (prefix: HashPrefix, id: string, salt: string): number | undefined => {
  const blocks = writeAscii(prefix, id, salt, message, 0)
  if (blocks === 0) return undefined
  begin()
  for (let block = 0; block < blocks; block++) compress(block << 4)
  return fraction(state[0]!, state[1]!)
}

/** Any message: its UTF-8, padded, hashed a block at a time through the first block of `message`. */
const anyMessage = (text: string): number => {
  if (bytes.length < text.length * 3 + 72) bytes = new Uint8Array(text.length * 6 + 144)
  const length = encoder.encodeInto(text, bytes).written
  const end = blocksFor(length) << 6
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
  begin()
  for (let block = 0; block < end; block += 64) {
    for (let t = 0; t < 16; t++) {
      const i = block + t * 4
      message[t] = (bytes[i]! << 24) | (bytes[i + 1]! << 16) | (bytes[i + 2]! << 8) | bytes[i + 3]!
    }
    compress(0)
  }
  return fraction(state[0]!, state[1]!)
}

/** The salts `hashAhead` draws, a flag's rollout and variant hashes; a prefix keeps a slot for each, at its index here. */
const DRAWN_SALTS = ["", "variant"] as const

type DrawnSalt = typeof DRAWN_SALTS[number]

/**
 * The draws `hashAhead` made, counted, and the last for each salt: its number and identifier. A prefix
 * keeps a draw's number rather than its identifier, a number being free to store.
 */
let draws = 0
const lastDraws = DRAWN_SALTS.map(() => ({ number: -1, identifier: "" }))

/** The hash the last draw for `salt` made for `prefix`, when that draw was for `identifier`. */
export const drawnAhead = (prefix: HashPrefix, identifier: string, salt: string): number | undefined => {
  const slot = DRAWN_SALTS.indexOf(salt as DrawnSalt)
  if (slot === -1) return undefined
  const last = lastDraws[slot]!
  return prefix.drawnIn[slot] === last.number && identifier === last.identifier ? prefix.ahead[slot] : undefined
}

/** The hash of `prefix + identifier + salt`: a flag's rollout (`salt` "") and variant (`salt` "variant") hashes, and the holdout's. */
export const bucketHash = (prefix: HashPrefix, identifier: string, salt: string): number =>
  drawnAhead(prefix, identifier, salt) ?? asciiMessage(prefix, identifier, salt) ?? anyMessage(prefix.text + identifier + salt)

/**
 * Messages waiting for a lane, by their number of blocks less one: up to four each, in sha1x4's layout
 * (a message every 64 words), with whose prefix each is.
 */
interface Waiting {
  readonly words: Int32Array
  readonly owners: Array<HashPrefix>
}

const waiting: ReadonlyArray<Waiting> = Array.from({ length: MAX_BLOCKS }, () => ({ words: new Int32Array(256), owners: [] }))

/** Hashes the waiting messages of `blocks` blocks side by side, and keeps each hash with its prefix and the draw. */
const drawWaiting = (module: Sha1x4, blocks: number, draw: number, slot: number) => {
  const { words, owners } = waiting[blocks - 1]!
  module.words.set(words)
  module.hash(blocks)
  for (let lane = 0; lane < owners.length; lane++) {
    const prefix = owners[lane]!
    prefix.ahead[slot] = fraction(module.words[256 + lane]!, module.words[260 + lane]!)
    prefix.drawnIn[slot] = draw
  }
  owners.length = 0
}

/**
 * Draws the hash of `identifier` and `salt` under each prefix, four at a time (messages of as many
 * blocks side by side), for `bucketHash` to answer from: most hashes of a `/flags` request share its
 * distinct id. A message that is not ASCII, or where WebAssembly has no SIMD, is left to `bucketHash`.
 */
export const hashAhead = (prefixes: ReadonlyArray<HashPrefix>, identifier: string, salt: DrawnSalt): void => {
  const module = prefixes.length === 0 ? null : sha1x4()
  if (module === null) return
  const slot = DRAWN_SALTS.indexOf(salt)
  const draw = lastDraws[slot] = { number: ++draws, identifier }
  // A draw that threw (out of stack) may have left messages waiting: they are not this draw's.
  for (const { owners } of waiting) owners.length = 0
  for (const prefix of prefixes) {
    const blocks = blocksFor(prefix.text.length + identifier.length + salt.length)
    if (blocks > MAX_BLOCKS) continue
    const { words, owners } = waiting[blocks - 1]!
    if (writeAscii(prefix, identifier, salt, words, owners.length << 6) === 0) continue
    owners.push(prefix)
    if (owners.length === 4) drawWaiting(module, blocks, draw.number, slot)
  }
  for (let blocks = 1; blocks <= MAX_BLOCKS; blocks++) {
    if (waiting[blocks - 1]!.owners.length > 0) drawWaiting(module, blocks, draw.number, slot)
  }
}

/** The holdout's prefix: it names no flag, so one person is held out of every flag of an experiment alike. */
export const HOLDOUT_PREFIX = new HashPrefix("holdout-")

/**
 * Whether the identifier's rollout hash under `prefix` (by `hash`, the SDK's unless given) falls within a
 * percentage; 100 lets everyone in without hashing.
 */
export const inRollout = (percentage: number, prefix: HashPrefix, identifier: string, hash = bucketHash): boolean =>
  percentage === 100 || hash(prefix, identifier, "") <= percentage / 100

/** The variant whose cumulative share first exceeds the hash, or null where the shares stop short of it. */
export const variantAt = (hash: number, variants: ReadonlyArray<{ readonly key: string; readonly rollout_percentage: number }>) => {
  let boundary = 0
  for (const variant of variants) {
    boundary += variant.rollout_percentage / 100
    if (hash < boundary) return variant.key
  }
  return null
}
