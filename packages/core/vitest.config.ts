import { defineConfig } from "vitest/config"
import { workspaceSources } from "../../vitest.shared.ts"

export default defineConfig({ ...workspaceSources, test: { testTimeout: 30_000 } })
