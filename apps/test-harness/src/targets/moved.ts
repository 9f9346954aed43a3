import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { onLocalNetwork } from "./in-process.ts"
import { closingAfter, type TargetStore } from "./prepared.ts"
import { serve } from "./process.ts"
import { hedgerowBin } from "./server-process.ts"

/** Runs `hedgerow admin migrate-to-postgres` as an operator would; rejects with its output unless it succeeds. */
const moveToPostgres = (dataDir: string, databaseUrl: string) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [hedgerowBin, "admin", "migrate-to-postgres", "--data-dir", dataDir, "--database-url", databaseUrl], {
      env: { ...process.env, DATABASE_URL: "" },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    child.stdout.on("data", (chunk) => (output += chunk))
    child.stderr.on("data", (chunk) => (output += chunk))
    child.once("exit", (code) => code === 0 ? resolve() : reject(new Error(`migrate-to-postgres exited with ${code}:\n${output}`)))
  })

/**
 * A server process on a store that began embedded: the fixtures go to a new data dir, `hedgerow admin
 * migrate-to-postgres` moves it into the empty PostgreSQL database `store.databaseUrl`, and `hedgerow
 * serve` serves that database.
 */
export const prepareMovedProcess = (store: TargetStore = {}) =>
  onLocalNetwork(async (local) => {
    const databaseUrl = store.databaseUrl
    if (databaseUrl === undefined) throw new Error("a moved store needs a PostgreSQL database to move to")
    const dataDir = mkdtempSync(path.join(tmpdir(), "hedgerow-moved-"))
    return closingAfter(
      async () => rmSync(dataDir, { recursive: true, force: true }),
      () => serve(local, { dataDir }, { DATABASE_URL: databaseUrl }, () => moveToPostgres(dataDir, databaseUrl))
    )
  })
