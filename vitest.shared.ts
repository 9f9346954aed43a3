import { availableParallelism } from "node:os"

/**
 * Every suite's vitest settings in common. `@hedgerow/*` imports resolve to the packages' TypeScript
 * sources (the `@hedgerow/source` condition of their `exports`), so tests need no build and see every
 * edit at once; vitest hands the same conditions to its worker processes. The rest are vitest's own
 * defaults for Node, which a configured list replaces.
 */
export const workspaceSources = {
  ssr: { resolve: { conditions: ["@hedgerow/source", "node", "development|production"] } }
}

/**
 * Every suite's test settings in common.
 * - `env`, the environment of its workers and so of the servers they start: the suites log in thousands
 *   of times, so new passwords are hashed with a hundredth of OWASP's work (docs/decisions.md, "Sessions
 *   and sign-up"). One test checks the shipped parameters on a server without it
 *   (apps/http-server/test/password-hashing.test.ts); `false` in the shell's environment runs the suites
 *   at those parameters.
 * - `maxWorkers`: a file per core, at least two, whether a suite runs alone or beside the others in
 *   `npm test`'s one run (where each project's own limit decides, not the root's).
 */
export const suiteTest = {
  env: { HEDGEROW_INSECURE_FAST_PASSWORD_HASHING: process.env["HEDGEROW_INSECURE_FAST_PASSWORD_HASHING"] ?? "true" },
  maxWorkers: Math.max(2, availableParallelism())
}

/**
 * For the suites whose files share nothing through their process (no settings in `process.env`, no
 * module state another file reads): a worker runs file after file with the modules it has loaded, rather
 * than a new worker loading effect, core and the store again for each file (docs/decisions.md, "How the
 * test suites run"). The suites that drive browsers and child processes keep a worker per file.
 */
export const sharedWorkers = { isolate: false }

/**
 * The suite's `env` as a test's worker holds it, for a server or a child process that sees only the
 * settings its test gives it.
 */
export const suiteSettings = (): Record<string, string> =>
  Object.fromEntries(Object.keys(suiteTest.env).flatMap((key) => {
    const value = process.env[key]
    return value === undefined ? [] : [[key, value]]
  }))
