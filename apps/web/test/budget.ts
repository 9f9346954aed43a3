/** The most compressed JavaScript a first load of the console may carry ("The web console" in docs/decisions.md). */
export const JS_BUDGET_BYTES = 250_000
