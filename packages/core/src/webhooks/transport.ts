import { Context, Data, type Effect } from "effect"

/** An attempt got no answer: refused, unresolvable, blocked address, timed out; `message` says which. */
export class WebhookSendError extends Data.TaggedError("WebhookSendError")<{ readonly message: string }> {}

export interface WebhookRequest {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  readonly timeoutMillis: number
  /** Whether the connection may go to an address `isPublicAddress` refuses. */
  readonly allowPrivate: boolean
}

/** The receiver's answer: its status and the start of its body. */
export interface WebhookReply {
  readonly status: number
  readonly excerpt: string
}

/** The port to HTTP and DNS for webhooks. */
export class WebhookTransport extends Context.Service<WebhookTransport, {
  /** The addresses a host name resolves to (an address resolves to itself). */
  readonly resolve: (host: string) => Effect.Effect<ReadonlyArray<string>, WebhookSendError>
  /**
   * POSTs the body, following no redirect, and checks the address actually connected to, since DNS may
   * answer differently than when the URL was accepted.
   */
  readonly send: (request: WebhookRequest) => Effect.Effect<WebhookReply, WebhookSendError>
}>()("hedgerow/WebhookTransport") {}
