import { defineConfig } from "vitest/config"

// Every admin command opens PGlite on a data dir (a second or two each), and the end-to-end checks
// start the real executable under tsx.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000
  }
})
