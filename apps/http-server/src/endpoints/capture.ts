import { CAPTURED_JSON, type CaptureOptions, EventCaptureService, type PayloadTooLarge, type ValidationError } from "@hedgerow/core"
import { Effect } from "effect"
import { answer } from "../answers/answer.ts"
import { bindGroup } from "./binding.ts"

/** PostHog's answer to events it accepted; `beacon=1` (a page's last beacon, whose answer nobody reads) an empty 204. */
const capturedAnswer = (beacon: string | undefined) => beacon === "1" ? answer<void>(204, {}, undefined) : answer<{ readonly status: 1 }>(200, {}, CAPTURED_JSON)

/** The events of a capture request, once its body is read: core reads the two it keeps and drops the rest. */
const captureAnswer = (body: unknown, options: CaptureOptions, beacon: string | undefined) =>
  EventCaptureService.use((s) => s.capture(body, options)).pipe(Effect.as(capturedAnswer(beacon)))

interface CaptureCall {
  readonly query: { readonly beacon?: string }
  readonly payload: Effect.Effect<unknown, ValidationError | PayloadTooLarge>
}

const events = (options: CaptureOptions) => (call: CaptureCall) =>
  Effect.flatMap(call.payload, (body) => captureAnswer(body, options, call.query.beacon))

/** Recordings are answered unread: this server keeps none, and reading one costs what nothing repays. */
const recording = (call: CaptureCall) => Effect.succeed(capturedAnswer(call.query.beacon))

const plain = events({ engage: false })
const engage = events({ engage: true })

export const capture = bindGroup("capture", {
  event: plain,
  eventGet: plain,
  ingest: plain,
  ingestGet: plain,
  batch: plain,
  batchGet: plain,
  capture: plain,
  captureGet: plain,
  track: plain,
  trackGet: plain,
  engage,
  engageGet: engage,
  recording,
  recordingGet: recording
})
