import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"

/** The same entry point `npm start` uses. */
export const hedgerowBin = fileURLToPath(new URL("../../../cli/bin/hedgerow.mjs", import.meta.url))

/** The URL `hedgerow serve` printed it serves on, once its output holds the line. */
export const servingUrlOf = (output: string) => /serving the API on (http:\/\/\S+?) /.exec(output)?.[1]

/** A running `hedgerow serve` child process. */
export interface ServerProcess {
  readonly url: string
  readonly child: ChildProcess
  /** Everything it printed so far, stdout and stderr interleaved. */
  readonly output: () => string
  /** SIGTERM, then waits for the exit code. */
  readonly stop: () => Promise<number | null>
  /** SIGKILL (no shutdown at all), then waits for the process to be gone. */
  readonly kill: () => Promise<void>
}

export interface ServeOptions {
  /** Added to this process's environment (PORT defaults to 0, a free port, and HOST to 127.0.0.1). */
  readonly env?: Readonly<Record<string, string>>
  readonly args?: ReadonlyArray<string>
  readonly timeoutMs?: number
}

/**
 * Starts `hedgerow serve` and resolves once it prints the URL it serves on; rejects with its output if
 * it exits first or does not start in time.
 */
export const startServerProcess = (options: ServeOptions = {}): Promise<ServerProcess> => {
  const child = spawn(process.execPath, [hedgerowBin, "serve", ...(options.args ?? [])], {
    // A DATABASE_URL of the caller's shell must not pick the store: the options say which one.
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", DATABASE_URL: "", ...options.env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
  const onData = (chunk: Buffer) => {
    output += chunk.toString()
  }
  child.stdout!.on("data", onData)
  child.stderr!.on("data", onData)
  return new Promise<ServerProcess>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`hedgerow serve did not start in time:\n${output}`))
    }, options.timeoutMs ?? 60_000)
    const check = () => {
      const url = servingUrlOf(output)
      if (url === undefined) return
      clearTimeout(timer)
      child.stdout!.off("data", check)
      resolve({
        url,
        child,
        output: () => output,
        stop: () => {
          if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM")
          return exited
        },
        kill: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
          await exited
        }
      })
    }
    child.stdout!.on("data", check)
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`hedgerow serve exited with ${code} before serving:\n${output}`))
    })
  })
}
