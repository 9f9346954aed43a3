import { Effect } from "effect"
import { parseConditions } from "../feature-flags/conditions.ts"
import { ValidationError } from "../shared/errors.ts"
import { decodeInput } from "../shared/validation.ts"
import { FlagsFile } from "./document.ts"
import { inFileOrder } from "./order.ts"

const decode = decodeInput(FlagsFile)

const refused = (attr: string, detail: string) => ValidationError.field(attr, detail)

/** The first record named twice in `names`, by its index. */
const firstRepeat = (names: ReadonlyArray<string>): number | undefined => {
  const seen = new Set<string>()
  for (let i = 0; i < names.length; i++) {
    if (seen.has(names[i]!)) return i
    seen.add(names[i]!)
  }
  return undefined
}

/**
 * A parsed file checked whole before anything is written: each field by its rule (the attr names the
 * record, e.g. `flags__3__key`), no name twice, each flag's filters in a shape flags can have, every
 * reference to a record of the file, and no loop among cohorts or among flags.
 */
export const readFlagsFile = (json: unknown): Effect.Effect<FlagsFile, ValidationError> =>
  Effect.gen(function*() {
    const file = yield* decode(json)
    const repeats: ReadonlyArray<readonly [string, ReadonlyArray<string | number>]> = [
      ["group_types", file.group_types.map((type) => type.group_type)],
      ["group_types", file.group_types.map((type) => type.group_type_index)],
      ["cohorts", file.cohorts.map((cohort) => cohort.name)],
      ["flags", file.flags.map((flag) => flag.key)]
    ]
    for (const [list, names] of repeats) {
      const at = firstRepeat(names.map(String))
      if (at !== undefined) return yield* refused(`${list}__${at}`, `"${names[at]}" appears twice in ${list}.`)
    }
    // The filters' shape is checked here too, so that a file a server would refuse midway is refused whole.
    for (const [i, flag] of file.flags.entries()) {
      if (!("groups" in flag.filters)) continue
      const read = parseConditions(flag.filters)
      if (read instanceof ValidationError) return yield* ValidationError.field(`flags__${i}__filters`, read.detail, read.code)
    }
    const order = inFileOrder(file)
    if (typeof order === "string") return yield* ValidationError.field(null, order)
    return file
  })
