import { statSync } from "node:fs"
import { defineConfig } from "vitest/config"
import { BaseSequencer, type TestSpecification } from "vitest/node"

/**
 * The files that take minutes, longest first, as measured on CI's machines (two cores). They start
 * first, so that the run does not end on one of them alone while the other core idles.
 */
const LONGEST_FIRST = [
  "apps/test-harness/test/bench.test.ts",
  "apps/test-harness/test/conformance.test.ts",
  "apps/web/test/every-page.test.ts",
  "apps/cli/test/backup.test.ts",
  "apps/cli/test/migrate-to-postgres.test.ts",
  "apps/web/test/shell.test.ts",
  "apps/test-harness/test/moved-conformance.test.ts",
  "apps/web/test/flags-list.test.ts",
  "apps/web/test/project-pages.test.ts",
  "apps/cli/test/flags-files.test.ts"
]

const rankOf = (file: string) => {
  const rank = LONGEST_FIRST.findIndex((known) => file.endsWith(known))
  return rank === -1 ? LONGEST_FIRST.length : rank
}

/**
 * Every suite's files in one queue over the machine's cores, rather than one suite at a time per core:
 * the known long files first, then the rest suite by suite, larger suites and files first. A suite's
 * files in a row let a worker that runs several of them (`sharedWorkers`) go from one to the next.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: Array<TestSpecification>) {
    const size = new Map(files.map((spec) => [spec, statSync(spec.moduleId).size]))
    const suiteSize = new Map<string, number>()
    for (const [spec, bytes] of size) suiteSize.set(spec.project.name, (suiteSize.get(spec.project.name) ?? 0) + bytes)
    const suiteOf = (spec: TestSpecification) => suiteSize.get(spec.project.name)!
    return [...files].sort((a, b) =>
      rankOf(a.moduleId) - rankOf(b.moduleId) || suiteOf(b) - suiteOf(a) || a.project.name.localeCompare(b.project.name) ||
      size.get(b)! - size.get(a)!
    )
  }
}

/**
 * `npm test`'s run: every package's suite (each with its own vitest.config.ts) as one project. How many
 * files run at once is each project's `maxWorkers` (vitest.shared.ts): projects sharing one limit share
 * one queue.
 */
export default defineConfig({
  test: {
    projects: ["packages/*/vitest.config.ts", "apps/*/vitest.config.ts"],
    sequence: { sequencer: LongestFirst }
  }
})
