import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Option from "effect/Option"
import { Flag } from "effect/cli"
import { UsageError } from "./output.ts"

/**
 * Flags → request bodies. The CLI only reshapes what was typed; core validates it, so a bad value gets
 * the same message from the CLI as from the API.
 */

/** The fields whose flag was given: an absent optional flag leaves its key out, as an API client would. */
export const given = <F extends Record<string, Option.Option<unknown>>>(
  fields: F
): { [K in keyof F]?: F[K] extends Option.Option<infer A> ? A : never } => {
  const body: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(fields)) {
    if (Option.isSome(value)) body[key] = value.value
  }
  return body as { [K in keyof F]?: F[K] extends Option.Option<infer A> ? A : never }
}

/** `a, b,c` → `["a", "b", "c"]`. */
export const commaList = (text: string): Array<string> =>
  text.split(",").map((item) => item.trim()).filter((item) => item !== "")

/** Ids that are integers in the API; anything else is passed through as a number for core to reject. */
export const numberList = (text: string): Array<number> => commaList(text).map(Number)

/**
 * `--data` (or the flag named by `flag`): a JSON object inline, or `@path/to/file.json`. Only its shape is
 * checked here; its fields are the API's to judge.
 */
export const jsonObjectData = (data: string, flag = "--data") =>
  Effect.gen(function*() {
    const text = data.startsWith("@")
      ? yield* Effect.flatMap(Effect.service(FileSystem.FileSystem), (fs) => fs.readFileString(data.slice(1))).pipe(
        Effect.mapError((error) => new UsageError({ message: `${flag}: cannot read ${data.slice(1)}: ${error.message}` }))
      )
      : data
    const parsed = yield* Effect.try({
      try: () => JSON.parse(text) as unknown,
      catch: (error) => new UsageError({ message: `${flag} is not valid JSON: ${(error as Error).message}` })
    })
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      return yield* new UsageError({ message: `${flag} must be a JSON object` })
    }
    return parsed as Record<string, unknown>
  })

/** `--data`: the body's other writable fields, which the command's own flags override. */
export const dataFlag = (example = "") =>
  Flag.String("data").pipe(
    Flag.withDescription(`Other writable fields${example} as a JSON object, inline or @file.json; the flags above win`),
    Flag.optional
  )

/** The `--data` object, or nothing when the flag was not given. */
export const extraData = (data: Option.Option<string>) =>
  Option.isSome(data) ? jsonObjectData(data.value) : Effect.succeed<Record<string, unknown>>({})

/**
 * Repeated `key=value` flags (`--prop plan=pro --prop beta=true`) as one record, split at the first `=`;
 * values stay text. A later pair overrides an earlier one with the same key, as a shell's assignments do.
 */
export const keyValuePairs = (pairs: ReadonlyArray<string>, flag: string) =>
  Effect.gen(function*() {
    // A Map, then fromEntries: a key such as `__proto__` stays an ordinary key.
    const record = new Map<string, string>()
    for (const pair of pairs) {
      const at = pair.indexOf("=")
      if (at <= 0) return yield* new UsageError({ message: `${flag} ${JSON.stringify(pair)}: expected key=value with a non-empty key` })
      record.set(pair.slice(0, at), pair.slice(at + 1))
    }
    return Object.fromEntries(record) as Record<string, string>
  })
