/** A bound a figure should stay within; the report prints it beside the figure, with whether it holds. */
export interface Goal {
  readonly bound: "at least" | "at most"
  readonly limit: number
}

export const atLeast = (limit: number): Goal => ({ bound: "at least", limit })
export const atMost = (limit: number): Goal => ({ bound: "at most", limit })

export const isMet = (goal: Goal, figure: number) => goal.bound === "at least" ? figure >= goal.limit : figure <= goal.limit

/** "≥ 5 %", "≤ 1.5 s": the limit in the figure's own unit. */
export const describeGoal = (goal: Goal, format: (n: number) => string) =>
  `${goal.bound === "at least" ? "≥" : "≤"} ${format(goal.limit)}`
