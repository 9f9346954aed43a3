import { defineConfig } from "vitest/config"
import { sharedWorkers, suiteTest, workspaceSources } from "../../vitest.shared.ts"

export default defineConfig({ ...workspaceSources, test: { ...suiteTest, ...sharedWorkers } })
