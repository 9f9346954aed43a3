import { type ApiFailure, Authentication, CURRENT, FlagEvaluationService, personalApiKeyOf, type RuntimeHints } from "@hedgerow/core"
import { Cause, Context, Effect, Option, Tracer } from "effect"
import { randomUUID } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { Reply } from "../answers/answer.ts"
import { envelopeReply, shuttingDownReply } from "../answers/envelope.ts"
import { unexpectedFailure } from "../answers/unexpected-failure.ts"
import { definitionsAnswer } from "../endpoints/flag-definitions.ts"
import { flagsAnswer } from "../endpoints/flag-evaluation.ts"
import { ServerLog } from "../log/server-log.ts"
import { lowestStatusOf } from "../log/settings.ts"
import { Observatory } from "../observe/observatory.ts"
import { corsHeaders } from "../middleware/cors.ts"
import { sdkBodyOf } from "../request/sdk-body.ts"
import { ServerSettings } from "../settings/server-settings.ts"
import { type DefinitionsRequest, type FlagsRequest, lastValue, laneRequestOf } from "./requests.ts"

/**
 * The SDK lane: the two requests PostHog's SDKs repeat most, a `/flags` evaluation and a definitions poll,
 * answered on `node:http` directly, beside HttpApi rather than through it. HttpApi stays their contract
 * (the OpenAPI document, the clients, every request the lane leaves) and the lane answers each with
 * the same core call, the same answer builders, CORS, envelope and log line, so a client cannot tell
 * them apart (the tests compare both byte for byte). What it saves is HttpApi's own work per request
 * (routing, the middleware chain, schema decoding of query and headers, the response's encoding), much
 * of what these requests cost (docs/decisions.md, "The hot path").
 *
 * A listener wrapped by it gets every request the lane does not take (see requests.ts).
 */
export type SdkLane = (request: IncomingMessage, response: ServerResponse) => boolean

/** The request's `Origin` earns the CORS headers on the evaluation paths, as the CORS middleware gives them. */
const corsOf = (request: IncomingMessage): Readonly<Record<string, string>> | undefined => {
  const origin = request.headers.origin
  return origin === undefined ? undefined : corsHeaders(origin, request.headers["access-control-request-headers"])
}

const send = (response: ServerResponse, reply: Reply, requestId: string, cors: Readonly<Record<string, string>> | undefined) => {
  const headers: Record<string, string | number> = { ...reply.headers, ...cors, "x-request-id": requestId }
  if (reply.json === undefined) {
    response.writeHead(reply.status, headers)
    response.end()
    return
  }
  headers["content-type"] = "application/json"
  headers["content-length"] = typeof reply.json === "string" ? Buffer.byteLength(reply.json) : reply.json.byteLength
  response.writeHead(reply.status, headers)
  response.end(reply.json)
}

/** The body a request declared the length of, once whole; `gone` when the client leaves first. */
const readBody = (request: IncomingMessage, done: (body: Buffer) => void, gone: () => void) => {
  const chunks: Array<Buffer> = []
  request.on("data", (chunk: Buffer) => chunks.push(chunk))
  request.on("end", () => done(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)))
  // Node closes the socket of a client gone mid-body (or too slow to send it) and answers nobody.
  request.on("error", () => {})
  request.on("close", () => {
    if (!request.complete) gone()
  })
}

/** A request the lane answers: its log line's template, when it began, and the CORS headers its answer carries. */
interface Taken {
  readonly template: string
  readonly startedAt: number
  readonly cors?: Readonly<Record<string, string>> | undefined
}

/** Built with core's services, the log and the server's settings; answers a request with what it takes. */
export const make = Effect.gen(function*() {
  const context = yield* Effect.context<FlagEvaluationService | Authentication>()
  // An application that gives a tracer gets HttpApi's server span on every request: the lane makes none.
  if (Context.getOrUndefined(context, Tracer.Tracer) !== undefined) return (): boolean => false
  const authentication = yield* Authentication
  const settings = yield* ServerSettings
  const log = yield* ServerLog
  const lowest = lowestStatusOf(log.level)
  const metrics = Option.getOrUndefined(yield* Effect.serviceOption(Observatory))?.requests
  const run = Effect.runCallbackWith(context)

  /** Runs `answer` and sends what it gives, a failure as its envelope and a defect as a logged 500, then logs the line. */
  const reply = (
    request: IncomingMessage,
    response: ServerResponse,
    taken: Taken,
    answer: Effect.Effect<Reply, ApiFailure, FlagEvaluationService | Authentication>,
    keyId: () => string | undefined = () => undefined
  ) => {
    const requestId = randomUUID()
    const method = request.method!
    const safe = Effect.catchCause(answer, (cause) => {
      const failure = Cause.findErrorOption(cause)
      if (failure._tag === "Some") return Effect.succeed(envelopeReply(failure.value))
      return Effect.map(unexpectedFailure(cause, { requestId, method, path: taken.template }), (internal) => envelopeReply(internal))
    })
    run(safe, {
      onExit: (exit) => {
        // Only an interruption gets here: the answer and its failures are all caught above.
        const sent = exit._tag === "Success" ? exit.value : shuttingDownReply(requestId)
        send(response, sent, requestId, taken.cors)
        logLine(method, taken, sent.status, requestId, keyId())
      }
    })
  }

  const logLine = (method: string, taken: Taken, status: number, requestId: string, keyId: string | undefined) => {
    const durationMs = performance.now() - taken.startedAt
    metrics?.record(method, taken.template, status, durationMs)
    if (status < lowest) return
    log.request({ method, path: taken.template, status, durationMs, requestId, keyId })
  }

  const evaluate = (request: IncomingMessage, response: ServerResponse, taken: FlagsRequest) => {
    const startedAt = performance.now()
    const compression = lastValue(taken.query, "compression")
    const v = lastValue(taken.query, "v")
    readBody(request, (bytes) => {
      const answer = Effect.flatMap(sdkBodyOf(bytes, compression, request.headers), (body) =>
        flagsAnswer(taken.path, v, body, request.headers as RuntimeHints))
      reply(request, response, { template: taken.template, startedAt, cors: corsOf(request) }, answer)
    }, () => {
      // Logged as HttpApi's path logs a request it stopped before answering.
      const requestId = randomUUID()
      logLine(request.method!, { template: taken.template, startedAt }, shuttingDownReply(requestId).status, requestId, undefined)
    })
  }

  const poll = (request: IncomingMessage, response: ServerResponse, taken: DefinitionsRequest) => {
    let keyId: string | undefined
    const answer = Effect.flatMap(authentication.authenticate(taken.credential), (actor) => {
      keyId = personalApiKeyOf(actor)?.id
      return definitionsAnswer(actor, taken.project ?? CURRENT, {
        query: { token: lastValue(taken.query, "token"), send_cohorts: lastValue(taken.query, "send_cohorts") },
        headers: { "if-none-match": request.headers["if-none-match"] }
      })
    })
    reply(request, response, { template: taken.template, startedAt: performance.now() }, answer, () => keyId)
  }

  return (request: IncomingMessage, response: ServerResponse): boolean => {
    const taken = laneRequestOf(request, settings)
    if (taken === undefined) return false
    if (taken._tag === "Flags") evaluate(request, response, taken)
    else poll(request, response, taken)
    return true
  }
})
