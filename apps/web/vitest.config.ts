import { defineConfig } from "vitest/config"
import { suiteTest, workspaceSources } from "../../vitest.shared.ts"

// The browser suite starts Chromium and a server once per file; on a busy machine either can take a while.
export default defineConfig({
  ...workspaceSources,
  test: {
    ...suiteTest,
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000
  }
})
