import { Context, Data, Effect, Schema } from "effect"

/** One plain-text e-mail to one address. */
export const MailMessage = Schema.Struct({ to: Schema.String, subject: Schema.String, text: Schema.String })
export type MailMessage = typeof MailMessage.Type

/** The transport refused or could not take the message; `message` says why, for the outbox. */
export class MailError extends Data.TaggedError("MailError")<{ readonly message: string }> {}

export interface MailTransport {
  /** False when the operator set up no mail transport: messages are recorded, never sent. */
  readonly configured: boolean
  readonly send: (message: MailMessage) => Effect.Effect<void, MailError>
}

/** The port to a mail transport. Without one (the default) nothing is sent, as PostHog without e-mail settings. */
export const Mailer = Context.Reference<MailTransport>("hedgerow/Mailer", {
  defaultValue: () => ({
    configured: false,
    send: () => Effect.fail(new MailError({ message: "no mail transport is configured" }))
  })
})
