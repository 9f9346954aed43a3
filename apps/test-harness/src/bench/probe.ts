import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { request } from "node:http"
import type { RequestSpec } from "./scenario.ts"

/** The body the probe sends: with a fresh id where the load generator would put one. */
const probeBody = (spec: RequestSpec) =>
  spec.idReplacement === true && spec.body !== undefined ? spec.body.replaceAll("[<id>]", `probe-${randomUUID()}`) : spec.body

export interface ProbeResponse {
  readonly status: number
  readonly body: Uint8Array
}

/**
 * Sends a scenario's request once and keeps the exact response bytes, which size the baseline.
 * No agent: the connection closes afterwards instead of idling in a pool past the server's life.
 */
export const probe = (url: string, spec: RequestSpec) =>
  Effect.callback<ProbeResponse, Error>((resume) => {
    const outgoing = request(url, { method: spec.method, headers: spec.headers, agent: false }, (response) => {
      const chunks: Array<Buffer> = []
      response.on("data", (chunk: Buffer) => chunks.push(chunk))
      response.on("end", () =>
        resume(Effect.succeed({ status: response.statusCode ?? 0, body: new Uint8Array(Buffer.concat(chunks)) })))
      response.on("error", (error) => resume(Effect.fail(error)))
    })
    outgoing.on("error", (error) => resume(Effect.fail(error)))
    outgoing.end(probeBody(spec))
    return Effect.sync(() => outgoing.destroy())
  })
