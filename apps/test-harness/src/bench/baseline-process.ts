import { Effect } from "effect"
import { writeFileSync } from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { loggedProcess } from "./logged-process.ts"

// Beside this module: baseline-child.ts from the sources (vitest), baseline-child.js once built (npm run bench).
const script = fileURLToPath(new URL(`./baseline-child${import.meta.url.endsWith(".ts") ? ".ts" : ".js"}`, import.meta.url))

/**
 * The bare node:http baseline (baseline-child.ts) as a separate process on this Node, answering `status`
 * and `body`; both are written to files in `dir` under `name`. Scoped.
 */
export const baselineProcess = (dir: string, name: string, body: Uint8Array, status: number) =>
  Effect.suspend(() => {
    const bodyFile = path.join(dir, `${name}.body`)
    writeFileSync(bodyFile, body)
    return loggedProcess({
      args: [script, bodyFile, String(status)],
      env: { PATH: process.env.PATH },
      logFile: path.join(dir, `${name}.log`),
      urlOf: (stdout) => /serving on (http:\/\/\S+)/.exec(stdout)?.[1]
    })
  })
