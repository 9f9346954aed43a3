import { packAscii } from "./ascii-words.ts"

/**
 * The salts whose hashes are drawn ahead (see `hashAhead`), a flag's rollout and variant hashes; a
 * prefix keeps a slot for each, at its index here.
 */
export const DRAWN_SALTS = ["", "variant"] as const

export type DrawnSalt = typeof DRAWN_SALTS[number]

/** One drawing of hashes ahead, for one identifier and salt: its number, counted by the hasher, and the identifier. */
export interface Draw {
  readonly number: number
  readonly identifier: string
}

/**
 * The text a bucketing hash begins with (a flag key and its dot, or the holdout's), packed into words
 * once: a flag's prefix is the same for every person, so only the identifier and the salt are written
 * per hash. It also keeps, for each drawn salt, the hash last drawn under it and the draw that made it,
 * which `bucketHash` answers from while that draw is the last for its salt.
 */
export class HashPrefix {
  readonly text: string
  /** Null when the text is not ASCII. */
  readonly words: Int32Array | null
  /** By drawn salt: the hash last drawn. */
  readonly ahead = [0, 0]
  /**
   * By drawn salt: the number of the draw that made `ahead`'s hash, 0 before any has. A number rather
   * than the draw itself: a prefix lives long and a draw briefly, and every pointer from the one to the
   * other would be one more for the garbage collector to track.
   */
  readonly drawnIn = [0, 0]

  constructor(text: string) {
    this.text = text
    this.words = packAscii(text, 0)
  }
}

/** The prefix of a flag's rollout and variant hashes. */
export const flagPrefix = (flagKey: string): HashPrefix => new HashPrefix(`${flagKey}.`)

/** The holdout's prefix: it names no flag, so one person is held out of every flag of an experiment alike. */
export const HOLDOUT_PREFIX = new HashPrefix("holdout-")
