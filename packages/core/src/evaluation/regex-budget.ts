import { RE2JS } from "re2js"

/**
 * The regex work one evaluation may do. RE2's time is linear in the value, but its factor is the
 * pattern's. re2js searches with a lazy DFA, which builds a state the first time it meets a new set of
 * program positions, and when the DFA's memory runs out it gives way to simulating the program (the
 * NFA), which visits every live instruction at every character. A pattern whose automaton needs a state
 * for every recent character (`a.{200}$`, "an `a` 201st from the end") makes the DFA build a state at
 * almost every character of a value, fill its memory, and then run the NFA over the whole value: linear,
 * but far from cheap, and a request may name many such conditions.
 *
 * So every match of one evaluation (a `/flags` request, `evaluation_reasons`, an in-process evaluation)
 * draws on one budget, counted in steps, a step being one instruction visited at one character (the
 * NFA's unit of work). A match pays, before it runs, for every character of the value (the search for
 * the literals a match needs, the DFA's transitions already built); then for every state the DFA builds,
 * by its instructions and its table of transitions; and, when the DFA gives up, for the NFA's run at its
 * worst, the program's size at every character, before that runs. The DFA may spend on one match what
 * the NFA would cost, or a warm-up if that is more, then it gives way: the NFA is not left without the
 * means to finish.
 *
 * A match the budget cannot pay for is refused, and so is every later one of the evaluation: its flag
 * fails, as a flag the service could not compute does, and no answer depends on how far a refused match
 * had got.
 */

/** What one evaluation may spend. */
const EVALUATION_STEPS = 500_000

/**
 * What the DFA may spend building states in one match however short the value: enough to build the
 * whole automaton of a pattern as people write them, which is then kept for the pattern's later matches.
 */
const WARM_UP_STEPS = 50_000

/** What a match costs at each character of the value, whatever it finds. */
const SCAN_STEPS = 2

/** What building a DFA state costs, in steps, for each instruction it starts from or holds. */
const STEPS_PER_BUILT_INSTRUCTION = 8

/** The memory each pattern's DFA keeps its states in (re2js's default is 8 MiB). */
const DFA_MEMORY = 256 * 1024

/** Thrown by a match the evaluation's budget cannot pay for. */
export class RegexBudgetExceeded extends Error {
  constructor() {
    super("The regex conditions of this evaluation need more work than one evaluation may do")
  }
}

/**
 * The one refusal thrown: once a budget refuses, every later regex condition of the evaluation throws,
 * and what was refused needs no trace of where, which making an error per condition would gather.
 */
export const budgetExceeded = new RegexBudgetExceeded()

export class RegexBudget {
  #left = EVALUATION_STEPS
  #refused = false

  /** Whether a match was refused: then every later one is. */
  get refused(): boolean {
    return this.#refused
  }

  /** Steps still to spend (below zero once work done was charged past the end). */
  get left(): number {
    return this.#left
  }

  /** Takes steps for work about to be done, or refuses it (and all work after it). */
  take(steps: number): boolean {
    if (this.#refused || steps > this.#left) {
      this.#refused = true
      return false
    }
    this.#left -= steps
    return true
  }

  /** Charges work already done. */
  charge(steps: number): void {
    this.#left -= steps
  }
}

/**
 * What this file uses of re2js's lazy DFA, which re2js does not export: the class of the DFA every
 * compiled pattern has. Building a state or a table answers null when memory runs out, and a search
 * answers null when the DFA gave up.
 */
interface LazyDfa {
  readonly numClasses: number
  makeState(pcs: ReadonlyArray<number>, flag: number, ids: ReadonlyArray<number>): { readonly nfaStates: ReadonlyArray<number> } | null
  allocTable(state: unknown, anchor: number): Array<unknown> | null
  match(input: unknown, pos: number, anchor: number): boolean | null
}

/** What this file reads of a compiled pattern's program: its instructions, each with the ranges of characters it takes. */
interface Program {
  numInst(): number
  getInst(pc: number): { readonly runes: ArrayLike<number> }
}

/** What this file sets of a compiled pattern. */
interface Internals {
  readonly prog: Program
  lazyDFA: unknown
  onepass: unknown
}

const internals = (regex: RE2JS) => regex.re2() as unknown as Internals

const sample = RE2JS.compile("").re2()
const LazyDfa = sample.dfa.constructor as new (prog: unknown, maxMem: number) => LazyDfa

// Metering builds on these internals: should an upgrade of re2js move them, fail at load, not run unmetered.
const methods: Record<string, unknown> = LazyDfa.prototype
const program = (sample as unknown as Partial<Internals>).prog
if (!("lazyDFA" in sample && "onepass" in sample) || program === undefined ||
  typeof program.numInst !== "function" || typeof program.getInst !== "function" ||
  typeof program.getInst(0)?.runes?.length !== "number" ||
  !["makeState", "allocTable", "match"].every((name) => typeof methods[name] === "function")) {
  throw new Error("re2js no longer has the program and lazy DFA that regex conditions are bounded and metered by")
}

/**
 * How many ranges of characters the pattern's classes hold, all its instructions together: making its DFA
 * sorts the bounds of every one of them (a class such as `\p{L}` holds hundreds, and a repetition
 * repeats its instruction).
 */
export const classRanges = (regex: RE2JS): number => {
  const { prog } = internals(regex)
  let ranges = 0
  for (let pc = 0; pc < prog.numInst(); pc++) ranges += Math.ceil(prog.getInst(pc).runes.length / 2)
  return ranges
}

/** A match being run: the budget it draws on, and the level of the budget the DFA stops building at. */
interface Run {
  readonly budget: RegexBudget
  /** What the NFA costs at worst over the value. */
  readonly fallback: number
  readonly stopAt: number
}

/**
 * A DFA that builds states only while the match's allowance lasts (running out reads to re2js as
 * running out of memory: the DFA gives up), and that lets re2js run the NFA after it only when the
 * budget pays for the NFA's whole run.
 */
class MeteredDfa extends LazyDfa {
  metering: Run | undefined = undefined

  #mayBuild(run: Run): boolean {
    return run.budget.left > run.stopAt
  }

  override makeState(pcs: ReadonlyArray<number>, flag: number, ids: ReadonlyArray<number>) {
    const run = this.metering
    if (run === undefined) return super.makeState(pcs, flag, ids)
    if (!this.#mayBuild(run)) return null
    const state = super.makeState(pcs, flag, ids)
    run.budget.charge(STEPS_PER_BUILT_INSTRUCTION * (pcs.length + (state === null ? 0 : state.nfaStates.length)))
    return state
  }

  override allocTable(state: unknown, anchor: number) {
    const run = this.metering
    if (run === undefined) return super.allocTable(state, anchor)
    if (!this.#mayBuild(run)) return null
    run.budget.charge(this.numClasses + 1)
    return super.allocTable(state, anchor)
  }

  override match(input: unknown, pos: number, anchor: number) {
    const found = super.match(input, pos, anchor)
    const run = this.metering
    // null: the DFA gave up, and re2js runs the NFA (or, on a short value, a backtracker as bounded) next.
    if (found !== null || run === undefined || run.budget.take(run.fallback)) return found
    // Refused: answering no match keeps re2js from searching further; the budget tells the caller.
    return false
  }
}

/** A compiled pattern whose matches draw on a budget. */
export class MeteredRegex {
  readonly #regex: RE2JS
  readonly #dfa: MeteredDfa
  readonly #size: number

  constructor(regex: RE2JS) {
    const re2 = internals(regex)
    this.#regex = regex
    this.#size = regex.programSize()
    this.#dfa = new MeteredDfa(re2.prog, DFA_MEMORY)
    re2.lazyDFA = this.#dfa
    // A boolean search is as fast on the DFA as on the one-pass matcher re2js tries first for patterns
    // anchored at the start, and only the DFA's work is metered.
    re2.onepass = null
  }

  /** Whether the pattern is found anywhere in the text; throws RegexBudgetExceeded when the budget cannot pay. */
  test(text: string, budget: RegexBudget): boolean {
    if (!budget.take(SCAN_STEPS * text.length)) throw budgetExceeded
    const fallback = this.#size * text.length
    const allowance = Math.min(budget.left, Math.max(WARM_UP_STEPS, fallback))
    this.#dfa.metering = { budget, fallback, stopAt: budget.left - allowance }
    let found: boolean
    try {
      found = this.#regex.test(text)
    } finally {
      this.#dfa.metering = undefined
    }
    if (budget.refused) throw budgetExceeded
    return found
  }
}
