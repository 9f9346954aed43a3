import { defineConfig } from "vitest/config"
import { suiteTest, workspaceSources } from "../../vitest.shared.ts"

// Every admin command opens PGlite on a data dir, and the end-to-end checks start the real executable:
// both are slow next to a unit test.
export default defineConfig({
  ...workspaceSources,
  test: {
    ...suiteTest,
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000
  }
})
