import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Stdio from "effect/Stdio"
import * as Stream from "effect/Stream"
import { Prompt } from "effect/cli"
import { UsageError } from "./output.ts"

/** The first line piped to stdin, without its line end: how scripts hand over a secret without a flag or an argument. */
const firstLineOfStdin = Effect.flatMap(Stdio.Stdio, (stdio) =>
  stdio.stdin.pipe(
    Stream.decodeText(),
    Stream.splitLines,
    Stream.runHead,
    Effect.map((line) => (line._tag === "Some" ? line.value : "")),
    Effect.orDie
  ))

/**
 * A secret never taken from a flag (which shells keep in their history and `ps` shows): piped on stdin,
 * or asked on the terminal without echo, twice when `confirm` says so.
 */
export const readSecret = (message: string, options: { readonly confirm: boolean }) =>
  Effect.gen(function*() {
    if (!(yield* Effect.flatMap(Stdio.Stdio, (stdio) => stdio.stdinIsTerminal))) return yield* firstLineOfStdin
    const first = Redacted.value(yield* Prompt.run(Prompt.Password({ message })))
    if (!options.confirm) return first
    const again = Redacted.value(yield* Prompt.run(Prompt.Password({ message: `${message} (again)` })))
    if (again !== first) return yield* new UsageError({ message: "the two passwords differ" })
    return first
  })

/** Text asked on the terminal, or a usage error naming the flag when there is no terminal to ask on. */
export const askText = (message: string, flag: string) =>
  process.stdin.isTTY === true
    ? Prompt.run(Prompt.String({ message }))
    : Effect.fail(new UsageError({ message: `${flag} is required when stdin is not a terminal` }))
