import { PackedIdentifier, putAscii } from "./ascii-words.ts"
import { type Draw, DRAWN_SALTS, type DrawnSalt, type HashPrefix } from "./hash-prefix.ts"
import { blocksFor, compress, SHA1_INITIAL } from "./sha1.ts"
import { FIRST_WORD, LANE_WORDS, loadSha1x4, MAX_BLOCKS, MESSAGE_WORDS, SECOND_WORD, type Sha1x4 } from "./sha1x4.ts"

/**
 * PostHog's bucketing hash: SHA-1 of the UTF-8 text `prefix + identifier + salt`, its first 60 bits
 * (15 hex digits) over 2^60, a number in [0, 1].
 *
 * SHA-1 is computed here rather than by node:crypto: a flags request hashes a few times per flag, and
 * a digest object and its buffers per hash cost more than the hash itself. An ASCII message of up to
 * four blocks, the usual one, is written straight into SHA-1's words; any other is encoded as UTF-8
 * first. A request's hashes share their identifier, so evaluation draws most of them ahead, four at a
 * time (`hashAhead`, with sha1x4.ts).
 */

/**
 * The first 60 bits of a digest, given its first two words, over 2^60. The 60-bit integer is rounded
 * to a double once, as PostHog's `u64 as f64` rounds it: the top 28 bits times 2^32 are exact, so
 * adding the low 32 bits rounds the exact sum a single time. The divisor 0xFFFFFFFFFFFFFFF is itself
 * 2^60 as a double.
 */
const fraction = (first: number, second: number): number => {
  const high = first >>> 0
  const low = second >>> 0
  const top28 = high >>> 4
  const bottom32 = (high & 0xf) * 0x10000000 + (low >>> 4)
  return (top28 * 0x100000000 + bottom32) / 2 ** 60
}

/** Messages waiting for a lane, of one number of blocks: up to four, in sha1x4's layout, with whose prefix each is. */
interface Waiting {
  readonly words: Int32Array
  readonly owners: Array<HashPrefix>
}

/**
 * What hashing works in: the message and state, buffers reused from hash to hash, the identifier last
 * packed, and the draws made ahead. Evaluation runs to its end without yielding, so one hasher serves
 * every evaluation in turn.
 */
class BucketHasher {
  /** The message as big-endian words, padded to whole blocks. */
  readonly #message = new Int32Array(16 * MAX_BLOCKS)
  readonly #state = new Int32Array(5)
  readonly #identifier = new PackedIdentifier()
  readonly #encoder = new TextEncoder()
  /** A message that is not ASCII, as UTF-8 and padded; grown for a longer one. */
  #bytes = new Uint8Array(256)
  /** By number of blocks less one. */
  readonly #waiting: ReadonlyArray<Waiting> = Array.from({ length: MAX_BLOCKS }, () => ({ words: new Int32Array(MESSAGE_WORDS), owners: [] }))
  /** The draws made; the process's one hasher numbers them all, so a number names one draw. */
  #draws = 0
  /** The last draw for each drawn salt, at its index in DRAWN_SALTS (numbered -1 before any). */
  readonly #lastDraws: Array<Draw> = DRAWN_SALTS.map(() => ({ number: -1, identifier: "" }))
  /** The four-lane module, made at the first draw; null where WebAssembly has no SIMD (hashes then stay in JavaScript). */
  #lanes: Sha1x4 | null | undefined = undefined

  /** See `bucketHash`. */
  hash(prefix: HashPrefix, identifier: string, salt: string): number {
    return this.drawnAhead(prefix, identifier, salt) ?? this.#asciiHash(prefix, identifier, salt) ??
      this.#utf8Hash(prefix.text + identifier + salt)
  }

  /** See `drawnAhead`. */
  drawnAhead(prefix: HashPrefix, identifier: string, salt: string): number | undefined {
    const slot = DRAWN_SALTS.indexOf(salt as DrawnSalt)
    if (slot === -1) return undefined
    const last = this.#lastDraws[slot]!
    return prefix.drawnIn[slot] === last.number && identifier === last.identifier ? prefix.ahead[slot] : undefined
  }

  /** See `hashAhead`. */
  hashAhead(prefixes: ReadonlyArray<HashPrefix>, identifier: string, salt: DrawnSalt): void {
    if (prefixes.length === 0) return
    // Loaded once: `null` (no SIMD) is an answer too, kept so that no draw tries again.
    if (this.#lanes === undefined) this.#lanes = loadSha1x4()
    const lanes = this.#lanes
    if (lanes === null) return
    const slot = DRAWN_SALTS.indexOf(salt)
    const draw: Draw = this.#lastDraws[slot] = { number: ++this.#draws, identifier }
    // A draw that threw (out of stack) may have left messages waiting: they are not this draw's.
    for (const { owners } of this.#waiting) owners.length = 0
    for (const prefix of prefixes) {
      const blocks = blocksFor(prefix.text.length + identifier.length + salt.length)
      if (blocks > MAX_BLOCKS) continue
      const { words, owners } = this.#waiting[blocks - 1]!
      if (this.#writeAscii(prefix, identifier, salt, words, owners.length * LANE_WORDS) === 0) continue
      owners.push(prefix)
      if (owners.length === 4) this.#drawWaiting(lanes, blocks, draw, slot)
    }
    for (let blocks = 1; blocks <= MAX_BLOCKS; blocks++) {
      if (this.#waiting[blocks - 1]!.owners.length > 0) this.#drawWaiting(lanes, blocks, draw, slot)
    }
  }

  /** Hashes the waiting messages of `blocks` blocks side by side, and keeps each hash with its prefix and the draw. */
  #drawWaiting(lanes: Sha1x4, blocks: number, draw: Draw, slot: number): void {
    const { words, owners } = this.#waiting[blocks - 1]!
    lanes.words.set(words)
    lanes.hash(blocks)
    for (let lane = 0; lane < owners.length; lane++) {
      const prefix = owners[lane]!
      prefix.ahead[slot] = fraction(lanes.words[FIRST_WORD + lane]!, lanes.words[SECOND_WORD + lane]!)
      prefix.drawnIn[slot] = draw.number
    }
    owners.length = 0
  }

  /**
   * The usual message (an ASCII prefix, identifier and salt) written straight into its blocks in `words`
   * from word `base`, with neither the text joined nor encoded: how many blocks it takes, or 0 for any
   * other.
   */
  #writeAscii(prefix: HashPrefix, identifier: string, salt: string, words: Int32Array, base: number): number {
    const prefixWords = prefix.words
    if (prefixWords === null) return 0
    const at = prefix.text.length
    const length = at + identifier.length + salt.length
    const blocks = blocksFor(length)
    if (blocks > MAX_BLOCKS) return 0
    let k = 0
    for (; k < prefixWords.length; k++) words[base + k] = prefixWords[k]!
    for (; k < blocks << 4; k++) words[base + k] = 0
    const start = base << 2
    if (!this.#identifier.put(identifier, words, start + at) || !putAscii(salt, words, start + at + identifier.length)) return 0
    const end = start + length
    words[end >> 2] |= 0x80 << (24 - ((end & 3) << 3))
    // The length in bits; its high word stays 0 for any message that fits.
    words[base + (blocks << 4) - 1] = length << 3
    return blocks
  }

  /** The hash of the usual message, or undefined for any other. */
  #asciiHash(prefix: HashPrefix, identifier: string, salt: string): number | undefined {
    const message = this.#message
    const blocks = this.#writeAscii(prefix, identifier, salt, message, 0)
    if (blocks === 0) return undefined
    const state = this.#begin()
    for (let block = 0; block < blocks; block++) compress(message, block << 4, state)
    return fraction(state[0]!, state[1]!)
  }

  /** Any message: its UTF-8, padded, hashed a block at a time through the first block of the message words. */
  #utf8Hash(text: string): number {
    if (this.#bytes.length < text.length * 3 + 72) this.#bytes = new Uint8Array(text.length * 6 + 144)
    const bytes = this.#bytes
    const length = this.#encoder.encodeInto(text, bytes).written
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
    const message = this.#message
    const state = this.#begin()
    for (let block = 0; block < end; block += 64) {
      for (let t = 0; t < 16; t++) {
        const i = block + t * 4
        message[t] = (bytes[i]! << 24) | (bytes[i + 1]! << 16) | (bytes[i + 2]! << 8) | bytes[i + 3]!
      }
      compress(message, 0, state)
    }
    return fraction(state[0]!, state[1]!)
  }

  /** The state, set to SHA-1's initial one. */
  #begin(): Int32Array {
    const state = this.#state
    for (let i = 0; i < 5; i++) state[i] = SHA1_INITIAL[i]!
    return state
  }
}

/** The hasher every bucketing hash of the process is made in. */
const hasher = new BucketHasher()

/** The hash of `prefix + identifier + salt`: a flag's rollout (`salt` "") and variant (`salt` "variant") hashes, and the holdout's. */
export const bucketHash = (prefix: HashPrefix, identifier: string, salt: string): number => hasher.hash(prefix, identifier, salt)

/** The hash the last draw for `salt` made for `prefix`, when that draw was for `identifier`. */
export const drawnAhead = (prefix: HashPrefix, identifier: string, salt: string): number | undefined =>
  hasher.drawnAhead(prefix, identifier, salt)

/**
 * Draws the hash of `identifier` and `salt` under each prefix, four at a time (messages of as many
 * blocks side by side), for `bucketHash` to answer from: most hashes of a `/flags` request share its
 * distinct id. A message that is not ASCII, or where WebAssembly has no SIMD, is left to `bucketHash`.
 */
export const hashAhead = (prefixes: ReadonlyArray<HashPrefix>, identifier: string, salt: DrawnSalt): void =>
  hasher.hashAhead(prefixes, identifier, salt)
