/**
 * The parts of WebAssembly's binary format that sha1x4.ts writes its module with: numbers, vectors and
 * sections, and the instructions it uses (local variables, 32-bit constants and loads, and SIMD).
 */

export const I32 = 0x7f
export const V128 = 0x7b

/** An unsigned LEB128 number, as every index, size and count in a module is written. */
export const leb = (value: number): Array<number> => {
  const bytes: Array<number> = []
  do {
    const low = value & 0x7f
    value >>>= 7
    bytes.push(value === 0 ? low : low | 0x80)
  } while (value !== 0)
  return bytes
}

/** A signed LEB128 number, as `i32.const` takes it. */
const sleb = (value: number): Array<number> => {
  const bytes: Array<number> = []
  for (;;) {
    const low = value & 0x7f
    value >>= 7
    const done = (value === 0 && (low & 0x40) === 0) || (value === -1 && (low & 0x40) !== 0)
    bytes.push(done ? low : low | 0x80)
    if (done) return bytes
  }
}

/** A vector: its length, then its items. */
export const vector = (items: ReadonlyArray<ReadonlyArray<number>>): Array<number> => [...leb(items.length), ...items.flat()]
export const section = (id: number, content: ReadonlyArray<number>): Array<number> => [id, ...leb(content.length), ...content]
export const name = (text: string): Array<number> => vector([...text].map((character) => [character.charCodeAt(0)]))

export const get = (local: number): Array<number> => [0x20, ...leb(local)]
export const set = (local: number): Array<number> => [0x21, ...leb(local)]
export const tee = (local: number): Array<number> => [0x22, ...leb(local)]
export const i32 = (value: number): Array<number> => [0x41, ...sleb(value)]
/** A SIMD instruction: its prefix, then its opcode. */
const simd = (opcode: number): Array<number> => [0xfd, ...leb(opcode)]
export const loadWord = (offset: number): Array<number> => [0x28, 2, ...leb(offset)]
export const replaceLane = (lane: number): Array<number> => [...simd(0x1c), lane]
export const store = (offset: number): Array<number> => [...simd(0x0b), 4, ...leb(offset)]
export const I32_ADD = 0x6a
export const I32_SHL = 0x74
export const I32_LT_U = 0x49
export const LOOP = [0x03, 0x40]
export const BR_IF = 0x0d
export const END = 0x0b
export const SPLAT = simd(0x11)
export const splat = (value: number): Array<number> => [...i32(value), ...SPLAT]
export const OR = simd(0x50)
export const XOR = simd(0x51)
export const BITSELECT = simd(0x52)
export const SHL = simd(0xab)
export const SHR = simd(0xad)
export const ADD = simd(0xae)
