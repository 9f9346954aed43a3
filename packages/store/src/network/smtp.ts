import { MailError, Mailer, type MailMessage, type MailTransport } from "@hedgerow/core/ports"
import { Config, Data, Effect, Layer, Option, Redacted, type Scope } from "effect"
import nodemailer from "nodemailer"

/** The sender when HEDGEROW_MAIL_FROM is not set. */
export const DEFAULT_MAIL_FROM = "Hedgerow <hedgerow@localhost>"

/**
 * nodemailer waits two minutes for a silent server by default; a delivery fiber should give up sooner and
 * retry. An operator's own values in the URL query win.
 */
const DEFAULT_TIMEOUTS = { connectionTimeout: "10000", greetingTimeout: "10000", socketTimeout: "30000" }

/** An SMTP setting the operator got wrong: the service refuses to start rather than lose every e-mail. */
export class SmtpConfigError extends Data.TaggedError("SmtpConfigError")<{ readonly message: string }> {}

/** `smtp://user:pass@host:port` (STARTTLS when offered) or `smtps://…` (TLS from the start). */
export const smtpUrlOf = (raw: string) =>
  Effect.gen(function*() {
    const url = URL.canParse(raw) ? new URL(raw) : undefined
    if (url === undefined || (url.protocol !== "smtp:" && url.protocol !== "smtps:") || url.hostname === "") {
      return yield* new SmtpConfigError({ message: "HEDGEROW_SMTP_URL must look like smtp://user:password@host:port or smtps://…" })
    }
    for (const [key, value] of Object.entries(DEFAULT_TIMEOUTS)) {
      if (!url.searchParams.has(key)) url.searchParams.set(key, value)
    }
    return url.toString()
  })

const reasonOf = (error: unknown): string => {
  if (typeof error !== "object" || error === null) return String(error)
  const { code, message } = error as { code?: unknown; message?: unknown }
  const text = typeof message === "string" ? message : String(error)
  return typeof code === "string" && !text.includes(code) ? `${code}: ${text}` : text
}

/** Sends each message over its own SMTP connection to the configured server. */
export const smtpTransport = (url: string, from: string): Effect.Effect<MailTransport, never, Scope.Scope> =>
  Effect.gen(function*() {
    const transport = nodemailer.createTransport(url)
    yield* Effect.addFinalizer(() => Effect.sync(() => transport.close()))
    return {
      configured: true,
      send: (message: MailMessage) =>
        Effect.tryPromise({
          // An address object, so the recipient is never re-parsed as a list.
          try: () => transport.sendMail({ from, to: { name: "", address: message.to }, subject: message.subject, text: message.text }),
          catch: (error) => new MailError({ message: reasonOf(error) })
        }).pipe(Effect.asVoid)
    }
  })

/**
 * The mail transport from HEDGEROW_SMTP_URL and HEDGEROW_MAIL_FROM, read once when the layer is built.
 * Without a URL, core's default stands: invite e-mails are recorded in the outbox and not sent.
 */
export const layer = Layer.effect(
  Mailer,
  Effect.gen(function*() {
    const raw = yield* Config.option(Config.Redacted("HEDGEROW_SMTP_URL"))
    const given = Option.map(raw, Redacted.value).pipe(Option.filter((value) => value.trim() !== ""))
    if (Option.isNone(given)) return Mailer.defaultValue()
    const from = yield* Config.String("HEDGEROW_MAIL_FROM").pipe(Config.withDefault(DEFAULT_MAIL_FROM))
    return yield* smtpTransport(yield* smtpUrlOf(given.value.trim()), from)
  })
)
