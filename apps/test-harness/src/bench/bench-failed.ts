import { Data } from "effect"

/** Why a run stopped before its figures were in: the scenario or section, and what went wrong there. */
export class BenchFailed extends Data.TaggedError("BenchFailed")<{ readonly scenario: string; readonly reason: string }> {
  override get message() {
    return `${this.scenario}: ${this.reason}`
  }
}
