import { SHA1_INITIAL, SHA1_ROUND_CONSTANTS } from "./sha1.ts"
import {
  ADD, BITSELECT, BR_IF, END, get, I32, i32, I32_ADD, I32_LT_U, I32_SHL, leb, loadWord, LOOP, name, OR, replaceLane, section,
  set, SHL, SHR, SPLAT, splat, store, tee, V128, vector, XOR
} from "./wasm-encoding.ts"

/**
 * SHA-1 on four messages at once, in WebAssembly's 128-bit SIMD: each lane of a vector holds one
 * message's word, so one instruction stream does the work of four. A `/flags` request hashes one
 * identifier against every flag, so even a project of a few flags fills the lanes.
 *
 * The module is written here as the bytes WebAssembly defines rather than kept as a binary: its 80
 * steps are generated the way `compress` in sha1.ts spells them out.
 */

/** The blocks a lane's message may take. */
export const MAX_BLOCKS = 4
/** A lane's room in the module's memory, in 32-bit words: lane `l`'s message, padded, starts at word `LANE_WORDS * l`. */
export const LANE_WORDS = 16 * MAX_BLOCKS
/** The words the four messages take, all the lanes together. */
export const MESSAGE_WORDS = 4 * LANE_WORDS
/** Where the first two words of lane `l`'s digest are left: words `FIRST_WORD + l` and `SECOND_WORD + l`. */
export const FIRST_WORD = MESSAGE_WORDS
export const SECOND_WORD = FIRST_WORD + 4

/** `local` rotated left by `bits`, on the stack. */
const rotl = (local: number, bits: number) => [...get(local), ...i32(bits), ...SHL, ...get(local), ...i32(32 - bits), ...SHR, ...OR]

/** Locals: the parameter (blocks), the offset of the block, the schedule's sixteen words, a to e, the state. */
const BLOCKS = 0
const OFFSET = 1
const W = 2
const WORKING = 18
const STATE = 23

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
    code.push(...ADD, ...splat(SHA1_ROUND_CONSTANTS[round]! | 0), ...ADD, ...get(e), ...ADD, ...get(w), ...ADD, ...set(e))
    code.push(...rotl(b, 30), ...set(b))
    ;[a, b, c, d, e] = [e, a, b, c, d]
  }
  return [a, b, c, d, e]
}

/** The one function, `hash(blocks)`: its locals, then its code. */
const body = (): Array<number> => {
  const code: Array<number> = []
  for (let i = 0; i < 5; i++) code.push(...splat(SHA1_INITIAL[i]! | 0), ...set(STATE + i))
  code.push(...LOOP) // over the blocks
  // Word t of the block, one lane from each message.
  for (let t = 0; t < 16; t++) {
    code.push(...get(OFFSET), ...loadWord(t * 4), ...SPLAT)
    for (let lane = 1; lane < 4; lane++) code.push(...get(OFFSET), ...loadWord(lane * LANE_WORDS * 4 + t * 4), ...replaceLane(lane))
    code.push(...set(W + t))
  }
  for (let i = 0; i < 5; i++) code.push(...get(STATE + i), ...set(WORKING + i))
  steps(code).forEach((local, i) => code.push(...get(STATE + i), ...get(local), ...ADD, ...set(STATE + i)))
  // The next block, while there is one.
  code.push(...get(OFFSET), ...i32(64), I32_ADD, ...tee(OFFSET), ...get(BLOCKS), ...i32(6), I32_SHL, I32_LT_U, BR_IF, 0, END)
  code.push(...i32(0), ...get(STATE), ...store(FIRST_WORD * 4))
  code.push(...i32(0), ...get(STATE + 1), ...store(SECOND_WORD * 4))
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
  /** The module's memory: the four messages, then the first two words of each digest. */
  readonly words: Int32Array
  /** Hashes the four messages of `blocks` blocks each (1 to `MAX_BLOCKS`). */
  readonly hash: (blocks: number) => void
}

/**
 * Whether the module hashes "abc" (one block, padded) in every lane to SHA-1's published digest: the
 * memory is little-endian and read here in the host's order, so a big-endian host fails this.
 */
const works = (module: Sha1x4) => {
  module.words.fill(0, 0, MESSAGE_WORDS)
  for (let lane = 0; lane < 4; lane++) {
    module.words[LANE_WORDS * lane] = 0x61626380
    module.words[LANE_WORDS * lane + 15] = 24
  }
  module.hash(1)
  return [0, 1, 2, 3].every((lane) =>
    module.words[FIRST_WORD + lane] === (0xa9993e36 | 0) && module.words[SECOND_WORD + lane] === 0x4706816a
  )
}

/** A new instance of the module, or null where WebAssembly has no SIMD or the module hashes wrong. */
export const loadSha1x4 = (): Sha1x4 | null => {
  try {
    const { exports } = new WebAssembly.Instance(new WebAssembly.Module(moduleBytes()))
    const module: Sha1x4 = {
      words: new Int32Array((exports["memory"] as WebAssembly.Memory).buffer, 0, SECOND_WORD + 4),
      hash: exports["hash"] as (blocks: number) => void
    }
    return works(module) ? module : null
  } catch {
    return null
  }
}
