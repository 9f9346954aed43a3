/** The most compressed JavaScript a first load of the console may carry (the figure for the flags page). */
export const JS_BUDGET_BYTES = 250_000
