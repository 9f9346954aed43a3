import { defineConfig } from "vitest/config"
import { workspaceSources } from "../../vitest.shared.ts"

// Every admin command opens PGlite on a data dir (a second or two each), and the end-to-end checks
// start the real executable.
export default defineConfig({
  ...workspaceSources,
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000
  }
})
