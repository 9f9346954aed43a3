import { defineConfig } from "vitest/config"
import { suiteTest, workspaceSources } from "../../vitest.shared.ts"

export default defineConfig({ ...workspaceSources, test: { ...suiteTest, testTimeout: 30_000 } })
