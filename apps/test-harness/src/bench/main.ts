import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Console, Effect, Exit, Runtime } from "effect"
import { parseInvocation, usage } from "./options.ts"
import { failedRequests, runBench } from "./run-bench.ts"
import { formatBench } from "./table.ts"

/**
 * `npm run bench`: exit 0 with a clean report, 1 if any request failed or got an answer it should not
 * have or the embedding and posthog-node answered apart, 2 for a refused command line. A target not
 * met is a figure of the report, not a failure.
 */
const main = Effect.gen(function*() {
  const invocation = parseInvocation(process.argv.slice(2))
  switch (invocation._tag) {
    case "help":
      yield* Console.log(usage)
      return 0
    case "invalid":
      yield* Console.error(`${invocation.reason}\n\n${usage}`)
      return 2
    case "run": {
      // Progress goes to stderr so that stdout carries only the report.
      const figures = yield* runBench({ ...invocation.options, progress: (line) => process.stderr.write(`… ${line}\n`) })
      yield* Console.log(formatBench(figures))
      const failed = failedRequests(figures)
      const mismatches = figures.embedding?.mismatches ?? 0
      if (failed === 0 && mismatches === 0) return 0
      if (failed > 0) {
        yield* Console.error(
          `\n${failed} requests failed or got a status they should not have (a non-2xx, or a 5xx for a fuzzed write), ` +
            "so these figures are not meaningful."
        )
      }
      if (mismatches > 0) {
        yield* Console.error(`\nThe embedding and posthog-node differ on ${mismatches} answers, so their figures are not comparable.`)
      }
      return 1
    }
  }
})

main.pipe(
  Effect.catchTag("BenchFailed", (error) => Console.error(`Benchmark failed: ${error.message}`).pipe(Effect.as(1))),
  NodeRuntime.runMain({
    // The program's value is the exit code; defects and interruption keep the default handling.
    teardown: (exit, onExit) => Exit.isSuccess(exit) ? onExit(exit.value as number) : Runtime.defaultTeardown(exit, onExit)
  })
)
