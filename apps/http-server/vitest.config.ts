import { defineConfig } from "vitest/config"
import { sharedWorkers, suiteTest, workspaceSources } from "../../vitest.shared.ts"

export default defineConfig({ ...workspaceSources, test: { ...suiteTest, ...sharedWorkers, testTimeout: 60_000, hookTimeout: 60_000 } })
