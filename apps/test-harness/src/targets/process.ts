import { HedgerowServices } from "@hedgerow/store"
import { ManagedRuntime } from "effect"
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { createWorld } from "../world.ts"
import { httpTarget } from "./http.ts"
import { onLocalNetwork } from "./in-process.ts"

/** The same entry point `npm start` uses. */
const hedgerow = fileURLToPath(new URL("../../../cli/bin/hedgerow.mjs", import.meta.url))

/**
 * A separate server process reached only by URL, as any deployment would be: the operator fixtures are
 * written to a data dir first (the store admits one process at a time), then `hedgerow serve`, what `npm start` runs,
 * serves that dir on a free port, configured through its environment with the harness's DNS and mail servers.
 */
export const prepareProcess = () => onLocalNetwork(async (local) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "hedgerow-conformance-"))
  const runtime = ManagedRuntime.make(HedgerowServices({ dataDir }))
  const world = await runtime.runPromise(createWorld)
  await runtime.dispose()

  const child = spawn(process.execPath, [hedgerow, "serve"], {
    env: { ...process.env, ...local.env, PORT: "0", HOST: "127.0.0.1", HEDGEROW_DATA_DIR: dataDir },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /serving the API on (http:\/\/\S+?) /.exec(output)
      if (match) {
        clearTimeout(timer)
        resolve(match[1]!)
      }
    }
    child.stdout.on("data", onData)
    child.stderr.on("data", onData)
    child.on("exit", (code) => reject(new Error(`server exited with ${code}:\n${output}`)))
  })
  const close = async () => {
    const exited = new Promise((resolve) => child.once("exit", resolve))
    child.kill("SIGTERM")
    await exited
    rmSync(dataDir, { recursive: true, force: true })
  }
  return { target: httpTarget("process", url), world, close }
})
