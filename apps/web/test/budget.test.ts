import { readdirSync, readFileSync } from "node:fs"
import * as path from "node:path"
import { gunzipSync, gzipSync } from "node:zlib"
import { describe, expect, it } from "vitest"
import { JS_BUDGET_BYTES } from "./budget.ts"


const assets = path.resolve(import.meta.dirname, "..", "dist", "assets")
const scripts = readdirSync(assets).filter((name) => name.endsWith(".js"))

describe("the built console", () => {
  it(`holds at most ${JS_BUDGET_BYTES / 1000} KB of gzipped JavaScript in all, every page's chunk included`, () => {
    expect(scripts.length).toBeGreaterThan(0)
    const sizes = scripts.map((name) => gzipSync(readFileSync(path.join(assets, name)), { level: 9 }).length)
    const total = sizes.reduce((sum, size) => sum + size, 0)
    console.log(`console JavaScript, gzipped: ${(total / 1000).toFixed(1)} KB in ${scripts.length} files`)
    expect(total).toBeLessThanOrEqual(JS_BUDGET_BYTES)
  })

  it("has each script's gzip beside it, which the server sends as is", () => {
    for (const name of scripts) {
      const file = path.join(assets, name)
      expect(gunzipSync(readFileSync(`${file}.gz`)).equals(readFileSync(file)), name).toBe(true)
    }
  })
})
