import { defineConfig } from "vitest/config"

// Each PGlite instance takes a second or two to boot (longer on a busy CI box).
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000
  }
})
