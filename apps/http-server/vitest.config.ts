import { defineConfig } from "vitest/config"
import { workspaceSources } from "../../vitest.shared.ts"

export default defineConfig({ ...workspaceSources, test: { testTimeout: 60_000, hookTimeout: 60_000 } })
