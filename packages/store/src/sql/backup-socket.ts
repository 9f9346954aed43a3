import { Data, Effect, type Scope } from "effect"
import * as fs from "node:fs"
import * as net from "node:net"
import * as path from "node:path"
import { BackupFailed, messageOf } from "./backup.ts"

/**
 * The channel through which the process that holds a data directory answers backup requests: a Unix
 * socket inside the directory, readable and writable by its owner only, so that only someone who could
 * read the database's files anyway may ask. The request is one line, `backup`; the answer is one line of
 * JSON, `{"ok":true,"bytes":N}` followed by the N bytes of the backup, or `{"ok":false,"error":"…"}`.
 */

const backupSocketName = "hedgerow.sock"

export const backupSocketPath = (dir: string) => path.join(path.resolve(dir), backupSocketName)

/** The longest path a Unix socket may have on Linux (its address field holds 108 bytes with the NUL). */
const MAX_SOCKET_PATH = 107

/** A request line is a word; anything longer is not one of ours. */
const MAX_REQUEST = 64

/** A peer that has not sent its request line by then is dropped. */
const REQUEST_TIMEOUT_MS = 5_000

const REQUEST = "backup"

interface Header {
  readonly ok: boolean
  readonly bytes?: number
  readonly error?: string
}

/**
 * Answers backup requests on `<dir>/hedgerow.sock` for the life of the scope, one at a time. The socket is
 * made under a temporary name, restricted to its owner, then renamed into place, so it is never reachable
 * with wider rights; one left by a process that died is replaced (the caller holds the directory's lock,
 * so no live process owns it). A directory whose path is too long for a socket gets none, with a warning.
 */
export const serveBackups = (
  dir: string,
  backup: Effect.Effect<Uint8Array, BackupFailed>
): Effect.Effect<void, never, Scope.Scope> => {
  const file = backupSocketPath(dir)
  if (Buffer.byteLength(file) > MAX_SOCKET_PATH) {
    return Effect.logWarning(
      `${file} is too long for a Unix socket: \`hedgerow admin backup\` cannot ask this process for a backup while it runs`
    )
  }
  return Effect.acquireRelease(
    Effect.tryPromise(async () => {
      const peers = new Set<net.Socket>()
      let queue: Promise<unknown> = Promise.resolve()
      const answer = (socket: net.Socket) => {
        // One backup at a time: a second request waits for the first, then gets a backup of its own.
        const done = queue.then(() => Effect.runPromise(Effect.result(backup))).then((result) => {
          if (socket.destroyed) return
          if (result._tag === "Success") {
            socket.write(`${JSON.stringify({ ok: true, bytes: result.success.byteLength } satisfies Header)}\n`)
            socket.end(result.success)
          } else {
            socket.end(`${JSON.stringify({ ok: false, error: result.failure.message } satisfies Header)}\n`)
          }
        })
        queue = done
      }
      const server = net.createServer((socket) => {
        peers.add(socket)
        socket.once("close", () => peers.delete(socket))
        socket.on("error", () => socket.destroy())
        socket.setTimeout(REQUEST_TIMEOUT_MS, () => socket.destroy())
        let received = ""
        const onData = (chunk: Buffer) => {
          received += chunk.toString("latin1")
          const end = received.indexOf("\n")
          if (end === -1 && received.length <= MAX_REQUEST) return
          socket.off("data", onData)
          socket.setTimeout(0)
          if (end !== -1 && received.slice(0, end).trim() === REQUEST) answer(socket)
          else socket.end(`${JSON.stringify({ ok: false, error: `unknown request; send "${REQUEST}"` } satisfies Header)}\n`)
        }
        socket.on("data", onData)
      })
      const draft = `${file}.${process.pid}.new`
      fs.rmSync(draft, { force: true })
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject)
        server.listen(draft, () => resolve())
      })
      fs.chmodSync(draft, 0o600)
      fs.renameSync(draft, file)
      return { server, peers, done: () => queue }
    }),
    ({ done, peers, server }) =>
      Effect.promise(async () => {
        server.close()
        for (const peer of peers) peer.destroy()
        // A backup under way still holds the store's lease; the store closes after it is given back.
        await done().catch(() => undefined)
        fs.rmSync(file, { force: true })
      })
  ).pipe(
    Effect.asVoid,
    Effect.catch((cause) =>
      Effect.logWarning(`cannot answer backup requests on ${file}: ${messageOf(cause)}; \`hedgerow admin backup\` will not reach this process`)
    )
  )
}

/** No process answers on the directory's socket (there is none, or its owner is gone). */
export class NoBackupSocket extends Data.TaggedError("NoBackupSocket")<{ readonly path: string }> {}

/**
 * Asks the process holding `dir` for a backup over its socket. Fails with `NoBackupSocket` when nobody
 * answers there, and with `BackupFailed` when the owner answers with a refusal or the answer breaks off.
 */
export const requestBackup = (dir: string): Effect.Effect<Uint8Array, BackupFailed | NoBackupSocket> =>
  Effect.callback<Uint8Array, BackupFailed | NoBackupSocket>((resume) => {
    const file = backupSocketPath(dir)
    const socket = net.createConnection(file)
    const chunks: Array<Buffer> = []
    let connected = false
    socket.once("connect", () => {
      connected = true
      socket.write(`${REQUEST}\n`)
    })
    socket.on("data", (chunk) => chunks.push(chunk))
    socket.once("error", (error: NodeJS.ErrnoException) => {
      resume(Effect.fail(
        !connected && (error.code === "ENOENT" || error.code === "ECONNREFUSED")
          ? new NoBackupSocket({ path: file })
          : new BackupFailed({ message: `the backup from ${file} broke off: ${error.message}` })
      ))
    })
    socket.once("end", () => {
      const all = Buffer.concat(chunks)
      const newline = all.indexOf(10)
      let header: Header | undefined
      try {
        header = newline === -1 ? undefined : JSON.parse(all.subarray(0, newline).toString("utf8")) as Header
      } catch {
        header = undefined
      }
      const body = all.subarray(newline + 1)
      resume(
        header === undefined
          ? Effect.fail(new BackupFailed({ message: `${file} gave no answer a backup request expects` }))
          : !header.ok
          ? Effect.fail(new BackupFailed({ message: `the server refused the backup: ${header.error ?? "no reason given"}` }))
          : header.bytes !== body.byteLength
          ? Effect.fail(new BackupFailed({ message: `the backup from ${file} broke off after ${body.byteLength} of ${header.bytes} bytes` }))
          : Effect.succeed(new Uint8Array(body))
      )
    })
    return Effect.sync(() => socket.destroy())
  })
