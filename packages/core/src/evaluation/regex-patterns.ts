import { compilePattern, compileSteps } from "./regex.ts"
import { budgetExceeded, type MeteredRegex, type RegexBudget } from "./regex-budget.ts"

/**
 * A project's `regex` and `not_regex` patterns, compiled: they belong to its prepared flags, so that one
 * project's patterns never make way for another's, and a project keeps every pattern it uses however many
 * it has. Compiling is the costly part of a pattern (far more than a match on the values SDKs send), so
 * each new snapshot of a project takes over, from the snapshot it replaces, the compiled patterns it still
 * uses and compiles only the others; those it does not use go with the snapshot replaced.
 *
 * Patterns are compiled before evaluation, one at a time, by whoever first needs the project's new state
 * (see `compileNext`), so that compiling a project's patterns never holds the event loop for more than one
 * pattern. A pattern evaluation still finds uncompiled is compiled then, and charged to the evaluation's
 * regex budget.
 */
export class CompiledPatterns {
  /** Compiled patterns, null for one that matches nothing. */
  readonly #compiled = new Map<string, MeteredRegex | null>()
  /** The patterns in use not compiled when this state was made, in the order they are compiled. */
  readonly #uncompiled: Array<string> = []
  #next = 0

  /** The patterns in use (an empty one needs no compiling), with those `previous` has compiled. */
  constructor(inUse: Iterable<string>, previous?: CompiledPatterns) {
    const compiled = previous === undefined ? undefined : previous.#compiled
    for (const pattern of inUse) {
      if (pattern === "" || this.#compiled.has(pattern)) continue
      const known = compiled?.get(pattern)
      if (known === undefined) this.#uncompiled.push(pattern)
      else this.#compiled.set(pattern, known)
    }
  }

  /** Whether there are no patterns to compile. */
  get empty(): boolean {
    return this.#compiled.size === 0 && this.#uncompiled.length === 0
  }

  /** Whether every pattern in use is compiled. */
  get ready(): boolean {
    return this.#next >= this.#uncompiled.length
  }

  /** Compiles the next pattern in use not compiled yet; false when there is none left. */
  compileNext(): boolean {
    while (this.#next < this.#uncompiled.length) {
      const pattern = this.#uncompiled[this.#next++]!
      if (this.#compiled.has(pattern)) continue
      this.#compiled.set(pattern, compilePattern(pattern))
      return true
    }
    return false
  }

  /**
   * Whether the pattern is found anywhere in the text (an empty pattern matches); null when it does not
   * compile. The match, and compiling the pattern when it is not compiled yet, draw on the evaluation's
   * budget, and throw RegexBudgetExceeded when the budget cannot pay.
   */
  finds(pattern: string, text: string, budget: RegexBudget): boolean | null {
    if (pattern === "") return true
    let regex = this.#compiled.get(pattern)
    if (regex === undefined) {
      if (!budget.take(compileSteps(pattern))) throw budgetExceeded
      regex = compilePattern(pattern)
      this.#compiled.set(pattern, regex)
    }
    return regex === null ? null : regex.test(text, budget)
  }
}
