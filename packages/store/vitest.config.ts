import { defineConfig } from "vitest/config"
import { sharedWorkers, suiteTest, workspaceSources } from "../../vitest.shared.ts"

// Each PGlite instance takes about a second to open (longer on a busy CI box).
export default defineConfig({
  ...workspaceSources,
  test: {
    ...suiteTest,
    ...sharedWorkers,
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000
  }
})
