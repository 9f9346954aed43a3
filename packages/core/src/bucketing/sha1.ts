/**
 * SHA-1's compression function in JavaScript, one message at a time, and the facts of SHA-1 the
 * four-lane module (sha1x4.ts) shares with it.
 */

/** SHA-1's initial state. */
export const SHA1_INITIAL: ReadonlyArray<number> = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0]

/** The constant added at each step, one for each round of twenty steps. */
export const SHA1_ROUND_CONSTANTS: ReadonlyArray<number> = [0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6]

/** The blocks a message of `length` bytes takes with its padding: a 1 bit, zeros, and its length as 64 bits. */
export const blocksFor = (length: number): number => ((length + 8) >>> 6) + 1

// The rounds' pieces, small enough for the compiler to inline into `compress`.
const rotl1 = (x: number) => (x << 1) | (x >>> 31)
const rotl5 = (x: number) => (x << 5) | (x >>> 27)
const rotl30 = (x: number) => (x << 30) | (x >>> 2)
const choose = (b: number, c: number, d: number) => (b & c) | (~b & d)
const parity = (b: number, c: number, d: number) => b ^ c ^ d
const majority = (b: number, c: number, d: number) => (b & c) | (b & d) | (c & d)
const [K1, K2, K3, K4] = SHA1_ROUND_CONSTANTS as readonly [number, number, number, number]

/**
 * Mixes the block `message[at..at+15]` (big-endian words) into `state`. Written out step by step, for
 * speed: the schedule's sixteen words live in local variables, rewritten in place from step 16 on, and
 * the five working variables trade roles from step to step instead of being shifted along.
 */
export const compress = (message: Int32Array, at: number, state: Int32Array): void => {
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
