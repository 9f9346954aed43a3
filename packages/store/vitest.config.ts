import { defineConfig } from "vitest/config"
import { suiteTest, workspaceSources } from "../../vitest.shared.ts"

// Each PGlite instance takes a second or two to boot (longer on a busy CI box).
export default defineConfig({
  ...workspaceSources,
  test: {
    ...suiteTest,
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000
  }
})
