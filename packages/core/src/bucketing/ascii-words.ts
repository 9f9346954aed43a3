/**
 * ASCII text written into SHA-1's message words, big-endian, four characters to a word, without encoding
 * it first: a bucketing hash's message is nearly always ASCII, a flag key, a person's id and a salt.
 */

/** Puts `text` into `words` from byte `at` (the words there being zero); false when a character is not ASCII. */
export const putAscii = (text: string, words: Int32Array, at: number): boolean => {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code > 0x7f) return false
    const position = at + i
    words[position >> 2]! |= code << (24 - ((position & 3) << 3))
  }
  return true
}

/** ASCII `text` as the words it fills from byte `offset`, zeros around it; null when it is not ASCII. */
export const packAscii = (text: string, offset: number): Int32Array | null => {
  const words = new Int32Array((offset + text.length + 3) >> 2)
  return putAscii(text, words, offset) ? words : null
}

/**
 * One identifier, the last one written, packed once for each byte offset within a word (0 to 3) it was
 * written at: a request hashes one identifier against every flag, whose keys place it at various offsets.
 */
export class PackedIdentifier {
  #text = ""
  /** By offset: the packed words, null when the text is not ASCII, undefined until packed. */
  readonly #byOffset: Array<Int32Array | null | undefined> = [undefined, undefined, undefined, undefined]

  /** ORs ASCII `text` into `words` from byte `at`; false when it is not ASCII. */
  put(text: string, words: Int32Array, at: number): boolean {
    if (text !== this.#text) {
      this.#text = text
      this.#byOffset.fill(undefined)
    }
    const offset = at & 3
    const packed = this.#byOffset[offset] ??= packAscii(text, offset)
    if (packed === null) return false
    const first = at >> 2
    for (let k = 0; k < packed.length; k++) words[first + k]! |= packed[k]!
    return true
  }
}
