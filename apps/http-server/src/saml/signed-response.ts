import { SamlRejected, type SamlResponse } from "@hedgerow/core"
import { SamlSignature } from "@hedgerow/core/ports"
import { Effect, Layer } from "effect"
import { Worker } from "node:worker_threads"
import { SIGNATURE_FAILED } from "./read-signed.ts"

/**
 * Where the worker's module is: beside this one as TypeScript when the sources run (tests), else the
 * package's built file, found by its export, so that a bundle embedding this module still finds it.
 */
const workerUrl = (): URL =>
  import.meta.url.endsWith(".ts")
    ? new URL("./signature-worker.ts", import.meta.url)
    : new URL(import.meta.resolve("@hedgerow/http-server/saml-signature-worker"))

/** Responses waiting for the worker at most; past it a log-in is refused at once rather than queued without end. */
const MAX_WAITING = 64
/** A Response the worker has not read in this long is refused (the worker is restarted if it hangs). */
const ANSWER_TIMEOUT_MS = 10_000

type Reply = { readonly id: number; readonly response: SamlResponse } | { readonly id: number; readonly detail: string }

/**
 * One worker thread per process, started at the first SAML answer and ended with the server: parsing
 * and checking a signed document is work for the processor alone, which would hold every other request
 * if done on the event loop.
 */
const makeReader = () => {
  let worker: Worker | undefined
  let next = 0
  const waiting = new Map<number, (reply: Reply) => void>()
  const failAll = () => {
    for (const [id, settle] of waiting) settle({ id, detail: SIGNATURE_FAILED })
    waiting.clear()
    worker = undefined
  }
  const started = (): Worker => {
    if (worker !== undefined) return worker
    const made = new Worker(workerUrl())
    made.unref()
    made.on("message", (reply: Reply) => {
      const settle = waiting.get(reply.id)
      waiting.delete(reply.id)
      settle?.(reply)
    })
    made.on("error", failAll)
    made.on("exit", () => {
      if (worker === made) failAll()
    })
    worker = made
    return made
  }
  const read = (document: string, certificate: string) =>
    Effect.callback<SamlResponse, SamlRejected>((resume) => {
      if (waiting.size >= MAX_WAITING) return resume(Effect.fail(new SamlRejected({ detail: "Too many SAML log-ins at once: try again." })))
      const id = next++
      const timer = setTimeout(() => {
        // A worker that does not answer is replaced; whatever else it held is refused with it.
        const stuck = worker
        waiting.get(id)?.({ id, detail: SIGNATURE_FAILED })
        waiting.delete(id)
        if (stuck !== undefined) void stuck.terminate()
      }, ANSWER_TIMEOUT_MS)
      timer.unref()
      waiting.set(id, (reply) => {
        clearTimeout(timer)
        resume("response" in reply ? Effect.succeed(reply.response) : Effect.fail(new SamlRejected({ detail: reply.detail })))
      })
      started().postMessage({ id, document, certificate })
      // A request given up (its client gone) stops waiting; the worker's answer is then dropped.
      return Effect.sync(() => {
        clearTimeout(timer)
        waiting.delete(id)
      })
    })
  const stop = Effect.promise(async () => {
    const running = worker
    worker = undefined
    if (running !== undefined) await running.terminate()
  })
  return { read, stop }
}

/** Core's SamlSignature port: xml-crypto and xmldom, in a worker thread. */
export const layer = Layer.effect(
  SamlSignature,
  Effect.map(Effect.acquireRelease(Effect.sync(makeReader), (reader) => reader.stop), (reader) => SamlSignature.of({ read: reader.read }))
)
