import { Effect } from "effect"
import { spawn } from "node:child_process"
import { closeSync, openSync, readFileSync } from "node:fs"
import { ServerStartFailed } from "./scoped-server.ts"

/** A server running as a child process, its stdout going to a file. */
export interface LoggedProcess {
  readonly url: string
  readonly pid: number
}

export interface LoggedProcessOptions {
  /** The program; this Node when absent, whose arguments are then the script and its own. */
  readonly command?: string | undefined
  readonly args: ReadonlyArray<string>
  readonly env: Readonly<Record<string, string | undefined>>
  /** Where the child's stdout goes, from its first line; created or emptied. */
  readonly logFile: string
  /** Its stderr goes to the log file too, for a server that logs there (PostgreSQL); kept for errors otherwise. */
  readonly stderrToLog?: boolean | undefined
  /** The user, group and working directory it runs with; this process's when absent. */
  readonly uid?: number | undefined
  readonly gid?: number | undefined
  readonly cwd?: string | undefined
  /** The signal that stops it at the end of the scope (SIGTERM when absent). */
  readonly stopSignal?: NodeJS.Signals | undefined
  /** The URL the child serves on, once its log says it does. */
  readonly urlOf: (log: string) => string | undefined
}

/**
 * Starts a server (on this Node unless `command` names another program) with its stdout written straight
 * to a file, as an operator redirects it: the child writes to the file itself, with nothing of this
 * process in between. Its URL is read back from that file. Stopped with the scope: its stop signal, and
 * SIGKILL if it has not exited 10 s later.
 */
export const loggedProcess = (options: LoggedProcessOptions) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: () =>
        new Promise<{ readonly process: LoggedProcess; readonly exited: Promise<void>; readonly kill: (signal: NodeJS.Signals) => void }>(
          (resolve, reject) => {
            const stdout = openSync(options.logFile, "w")
            const child = spawn(options.command ?? process.execPath, [...options.args], {
              env: options.env,
              stdio: ["ignore", stdout, options.stderrToLog === true ? stdout : "pipe"],
              uid: options.uid,
              gid: options.gid,
              cwd: options.cwd
            })
            // The child holds its own descriptor of the file.
            closeSync(stdout)
            let stderr = ""
            child.stderr?.on("data", (chunk: Buffer) => {
              stderr += chunk.toString()
            })
            const exited = new Promise<void>((done) => child.once("exit", () => done()))
            const output = () => `${readFileSync(options.logFile, "utf8")}${stderr}`
            const commandLine = [...(options.command === undefined ? [] : [options.command]), ...options.args].join(" ")
            const started = Date.now()
            const poll = setInterval(() => {
              const url = options.urlOf(readFileSync(options.logFile, "utf8"))
              if (url !== undefined) {
                clearInterval(poll)
                resolve({ process: { url, pid: child.pid! }, exited, kill: (signal) => child.kill(signal) })
              } else if (child.exitCode !== null || child.signalCode !== null) {
                clearInterval(poll)
                reject(new Error(`${commandLine} exited before serving:\n${output()}`))
              } else if (Date.now() - started > 60_000) {
                clearInterval(poll)
                child.kill("SIGKILL")
                reject(new Error(`${commandLine} did not start within 60 s:\n${output()}`))
              }
            }, 5)
          }
        ),
      catch: (error) => new ServerStartFailed({ reason: error instanceof Error ? error.message : String(error) })
    }),
    ({ exited, kill }) =>
      Effect.sync(() => kill(options.stopSignal ?? "SIGTERM")).pipe(
        Effect.andThen(Effect.promise(() => exited)),
        Effect.timeoutOrElse({ duration: "10 seconds", orElse: () => Effect.sync(() => kill("SIGKILL")).pipe(Effect.andThen(Effect.promise(() => exited))) })
      )
  ).pipe(Effect.map(({ process }) => process))
