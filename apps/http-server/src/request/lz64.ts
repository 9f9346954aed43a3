/**
 * lz-string's base64 form (`compression=lz64`, also called `lz-string`), which older posthog-js versions
 * send and PostHog's capture reads: text of lz-string's 64 characters, each six bits of a stream of
 * LZW codes of growing width. Decoded here with a cap on the text it opens to, so that a few bytes
 * cannot unfold into a heap-filling string: past `limit` UTF-16 units it stops and answers `tooLarge`.
 */

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="

/** Each character's six bits; -1 for a character outside the alphabet. */
const VALUES: Int8Array = (() => {
  const values = new Int8Array(128).fill(-1)
  for (let i = 0; i < ALPHABET.length; i++) values[ALPHABET.charCodeAt(i)] = i
  return values
})()

export type Lz64Outcome = { readonly text: string } | "tooLarge" | "invalid"

/** Thrown inside the decoder only, for the two ways it stops early. */
class Stop {
  readonly outcome: "tooLarge" | "invalid"
  constructor(outcome: "tooLarge" | "invalid") {
    this.outcome = outcome
  }
}

/** The text `input` (lz-string's base64) stands for, at most `limit` UTF-16 units of it. */
export const decodeLz64 = (input: string, limit: number): Lz64Outcome => {
  if (input.length === 0) return { text: "" }
  let index = 0
  let value = 0
  let mask = 0
  const nextValue = () => {
    // Past the end reads zeros, as lz-string reads it; running far past is caught below.
    const position = index++
    if (position >= input.length) return 0
    const code = input.charCodeAt(position)
    const bits = code < 128 ? VALUES[code]! : -1
    if (bits < 0) throw new Stop("invalid")
    return bits
  }
  const readBits = (width: number): number => {
    let bits = 0
    for (let power = 1; power < 1 << width; power <<= 1) {
      if (mask === 0) {
        value = nextValue()
        mask = 32
      }
      if ((value & mask) !== 0) bits |= power
      mask >>= 1
    }
    return bits
  }
  try {
    const dictionary: Array<string> = ["", "", ""]
    const first = readBits(2)
    if (first === 2) return { text: "" }
    if (first === 3) return "invalid"
    let previous = String.fromCharCode(readBits(first === 0 ? 8 : 16))
    dictionary.push(previous)
    const parts: Array<string> = [previous]
    let produced = previous.length
    let width = 3
    let enlargeIn = 4
    for (;;) {
      if (index > input.length) return "invalid"
      let code = readBits(width)
      if (code === 2) return { text: parts.join("") }
      if (code < 2) {
        dictionary.push(String.fromCharCode(readBits(code === 0 ? 8 : 16)))
        code = dictionary.length - 1
        if (--enlargeIn === 0) enlargeIn = 1 << width++
      }
      const entry = code < dictionary.length ? dictionary[code]! : code === dictionary.length ? previous + previous[0] : undefined
      if (entry === undefined) return "invalid"
      produced += entry.length
      if (produced > limit) return "tooLarge"
      parts.push(entry)
      dictionary.push(previous + entry[0])
      previous = entry
      if (--enlargeIn === 0) enlargeIn = 1 << width++
    }
  } catch (stop) {
    if (stop instanceof Stop) return stop.outcome
    throw stop
  }
}
