/**
 * SHA-1 on four messages at once, in WebAssembly's 128-bit SIMD: each lane of a vector holds one
 * message's word, so one instruction stream does the work of four. A `/flags` request hashes one
 * identifier against every flag: a project of a few flags fills the lanes already.
 *
 * The module is written here as the bytes WebAssembly defines rather than kept as a binary: its 80
 * steps are generated the way `compress` in hash.ts spells them out.
 *
 * Memory, in 32-bit words: lane `l`'s message, padded, at `64 * l`; `hash(blocks)` hashes the four, each
 * `blocks` long (1 to 4), and leaves the first two words of each digest at `256 + l` and `260 + l`, all
 * the bucketing hash reads.
 */

const I32 = 0x7f
const V128 = 0x7b

/** An unsigned LEB128 number, as every index, size and count in the module is written. */
const leb = (value: number): Array<number> => {
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
const vector = (items: ReadonlyArray<ReadonlyArray<number>>) => [...leb(items.length), ...items.flat()]
const section = (id: number, content: ReadonlyArray<number>) => [id, ...leb(content.length), ...content]
const name = (text: string) => vector([...text].map((character) => [character.charCodeAt(0)]))

// The instructions used: local variables, 32-bit constants and loads, and SIMD (0xfd, then its opcode).
const get = (local: number) => [0x20, ...leb(local)]
const set = (local: number) => [0x21, ...leb(local)]
const tee = (local: number) => [0x22, ...leb(local)]
const i32 = (value: number) => [0x41, ...sleb(value)]
const simd = (opcode: number) => [0xfd, ...leb(opcode)]
const loadWord = (offset: number) => [0x28, 2, ...leb(offset)]
const replaceLane = (lane: number) => [...simd(0x1c), lane]
const store = (offset: number) => [...simd(0x0b), 4, ...leb(offset)]
const I32_ADD = 0x6a
const I32_SHL = 0x74
const I32_LT_U = 0x49
const LOOP = [0x03, 0x40]
const BR_IF = 0x0d
const END = 0x0b
const SPLAT = simd(0x11)
const splat = (value: number) => [...i32(value), ...SPLAT]
const OR = simd(0x50)
const XOR = simd(0x51)
const BITSELECT = simd(0x52)
const SHL = simd(0xab)
const SHR = simd(0xad)
const ADD = simd(0xae)

/** `local` rotated left by `bits`, on the stack. */
const rotl = (local: number, bits: number) => [...get(local), ...i32(bits), ...SHL, ...get(local), ...i32(32 - bits), ...SHR, ...OR]

/** Bytes: each lane's message, and where the digests' first two words are left. */
const LANE_BYTES = 256
const FIRST_WORDS = 1024

/** Locals: the parameter (blocks), the offset of the block, the schedule's sixteen words, a to e, the state. */
const BLOCKS = 0
const OFFSET = 1
const W = 2
const WORKING = 18
const STATE = 23

/** SHA-1's initial state. */
export const SHA1_INITIAL: ReadonlyArray<number> = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0]
const K = [0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6]

/** The 80 steps over the schedule in W, from the state in the working variables; answers where a to e end up. */
const steps = (code: Array<number>): Array<number> => {
  // The working variables trade roles from step to step instead of being shifted along.
  let [a, b, c, d, e] = [0, 1, 2, 3, 4].map((i) => WORKING + i) as [number, number, number, number, number]
  for (let t = 0; t < 80; t++) {
    const w = W + (t & 15)
    if (t >= 16) {
      code.push(...get(W + ((t - 3) & 15)), ...get(W + ((t - 8) & 15)), ...XOR, ...get(W + ((t - 14) & 15)), ...XOR)
      code.push(...get(w), ...XOR, ...set(w), ...rotl(w, 1), ...set(w))
    }
    code.push(...rotl(a, 5))
    const round = t / 20 | 0
    if (round === 0) code.push(...get(c), ...get(d), ...get(b), ...BITSELECT) // choose: b ? c : d
    else if (round === 2) code.push(...get(c), ...get(b), ...get(b), ...get(d), ...XOR, ...BITSELECT) // majority: b ^ d ? c : b
    else code.push(...get(b), ...get(c), ...XOR, ...get(d), ...XOR) // parity
    code.push(...ADD, ...splat(K[round]! | 0), ...ADD, ...get(e), ...ADD, ...get(w), ...ADD, ...set(e))
    code.push(...rotl(b, 30), ...set(b))
    ;[a, b, c, d, e] = [e, a, b, c, d]
  }
  return [a, b, c, d, e]
}

const body = (): Array<number> => {
  const code: Array<number> = []
  for (let i = 0; i < 5; i++) code.push(...splat(SHA1_INITIAL[i]! | 0), ...set(STATE + i))
  code.push(...LOOP) // over the blocks
  // Word t of the block, one lane from each message.
  for (let t = 0; t < 16; t++) {
    code.push(...get(OFFSET), ...loadWord(t * 4), ...SPLAT)
    for (let lane = 1; lane < 4; lane++) code.push(...get(OFFSET), ...loadWord(lane * LANE_BYTES + t * 4), ...replaceLane(lane))
    code.push(...set(W + t))
  }
  for (let i = 0; i < 5; i++) code.push(...get(STATE + i), ...set(WORKING + i))
  steps(code).forEach((local, i) => code.push(...get(STATE + i), ...get(local), ...ADD, ...set(STATE + i)))
  // The next block, while there is one.
  code.push(...get(OFFSET), ...i32(64), I32_ADD, ...tee(OFFSET), ...get(BLOCKS), ...i32(6), I32_SHL, I32_LT_U, BR_IF, 0, END)
  for (let i = 0; i < 2; i++) code.push(...i32(0), ...get(STATE + i), ...store(FIRST_WORDS + i * 16))
  return [...vector([[1, I32], [...leb(STATE + 5 - W), V128]]), ...code, END]
}

const moduleBytes = (): Uint8Array<ArrayBuffer> => {
  const func = body()
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vector([[0x60, 1, I32, 0]])), // one type: (i32) -> ()
    ...section(3, vector([[0]])), // one function of it
    ...section(5, vector([[0, 1]])), // one page of memory
    ...section(7, vector([[...name("hash"), 0, 0], [...name("memory"), 2, 0]])),
    ...section(10, vector([[...leb(func.length), ...func]]))
  ])
}

export interface Sha1x4 {
  /** The module's memory: the four messages (`64 * lane`), then the digests' first words (`256 + lane`, `260 + lane`). */
  readonly words: Int32Array
  /** Hashes the four messages of `blocks` blocks each. */
  readonly hash: (blocks: number) => void
}

/**
 * Whether the module hashes "abc" (one block, padded) in every lane to SHA-1's published digest: the
 * memory is little-endian and read here in the host's order, so a big-endian host fails this.
 */
const works = (module: Sha1x4) => {
  module.words.fill(0, 0, 256)
  for (let lane = 0; lane < 4; lane++) {
    module.words[64 * lane] = 0x61626380
    module.words[64 * lane + 15] = 24
  }
  module.hash(1)
  return [0, 1, 2, 3].every((lane) => module.words[256 + lane] === (0xa9993e36 | 0) && module.words[260 + lane] === 0x4706816a)
}

/** The module, made the first time it is needed; null where WebAssembly has no SIMD (the hash then stays in JavaScript). */
let instance: Sha1x4 | null | undefined

export const sha1x4 = (): Sha1x4 | null => {
  if (instance !== undefined) return instance
  try {
    const { exports } = new WebAssembly.Instance(new WebAssembly.Module(moduleBytes()))
    const module: Sha1x4 = {
      words: new Int32Array((exports["memory"] as WebAssembly.Memory).buffer, 0, 264),
      hash: exports["hash"] as (blocks: number) => void
    }
    instance = works(module) ? module : null
  } catch {
    instance = null
  }
  return instance
}
