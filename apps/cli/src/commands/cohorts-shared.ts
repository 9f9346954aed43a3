import { Argument } from "effect/cli"

/** The cohort an item command acts on, by id. */
export const cohortIdArgument = Argument.String("id").pipe(Argument.withDescription("Cohort id"))
