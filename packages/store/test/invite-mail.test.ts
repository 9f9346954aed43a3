import { assert, describe, it } from "@effect/vitest"
import { Authentication, bodyOf, Bootstrap, InviteService } from "@hedgerow/core"
import { MAX_ATTEMPTS } from "@hedgerow/core/ports"
import { ConfigProvider, Effect, Layer, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import * as net from "node:net"
import { SMTPServer } from "smtp-server"
import { Hedgerow, smtpUrlOf } from "../src/index.ts"
import { type Backend, forEachBackend } from "../src/testing/index.ts"

/**
 * Invite e-mail against real SMTP on loopback: a local server that accepts mail, and a port where nothing
 * listens. Core's services run exactly as the HTTP handlers call them.
 */

interface Received {
  readonly from: string
  readonly to: ReadonlyArray<string>
  readonly raw: string
}

/** An SMTP server on 127.0.0.1 that keeps every message; closed with the scope. */
const smtpServer = Effect.acquireRelease(
  Effect.callback<{ readonly port: number; readonly received: Array<Received>; readonly server: SMTPServer }>((resume) => {
    const received: Array<Received> = []
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      disableReverseLookup: true,
      onData(stream, session, done) {
        let raw = ""
        stream.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")))
        stream.on("end", () => {
          received.push({
            from: session.envelope.mailFrom === false ? "" : session.envelope.mailFrom.address,
            to: session.envelope.rcptTo.map((recipient) => recipient.address),
            raw
          })
          done()
        })
      }
    })
    server.listen(0, "127.0.0.1", () => resume(Effect.succeed({ port: (server.server.address() as net.AddressInfo).port, received, server })))
  }),
  (smtp) => Effect.callback<void>((resume) => smtp.server.close(() => resume(Effect.void)))
)

/** A loopback port nobody listens on: connecting is refused at once. */
const closedPort = Effect.callback<number>((resume) => {
  const probe = net.createServer()
  probe.listen(0, "127.0.0.1", () => {
    const { port } = probe.address() as net.AddressInfo
    probe.close(() => resume(Effect.succeed(port)))
  })
})

/** Hedgerow on a new store of `backend`, configured through the environment `env`. */
const servicesOn = (backend: Backend) => (env: Record<string, string>) =>
  backend.on((options) =>
    Hedgerow.layer(options).pipe(Layer.provide(Layer.succeed(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env }))))
  )

/** Quoted-printable bodies, read as text. */
const plainText = (raw: string) =>
  raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))

interface OutboxRow {
  readonly recipient: string
  readonly attempts: number
  readonly last_error: string | null
  readonly sent_at: Date | null
}

const outboxRow = (invite: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<OutboxRow>`SELECT recipient, attempts, last_error, sent_at FROM email_outbox WHERE related_id = ${invite}`
    return rows[0]!
  })

const eventually = <A, E, R>(effect: Effect.Effect<A, E, R>, done: (value: A) => boolean) =>
  effect.pipe(
    Effect.repeat({ schedule: Schedule.spaced("50 millis"), until: done }),
    Effect.timeout("20 seconds")
  )

/** An organization "Acme Corp" and its owner's actor. */
const owner = Effect.gen(function*() {
  const boot = yield* (yield* Bootstrap).run({ email: "boss@acme.test", organizationName: "Acme Corp" })
  const actor = yield* (yield* Authentication).authenticate(boot.personal_api_key)
  return { actor, organization: boot.organization_id }
})

forEachBackend((backend) =>
describe(`invite e-mail over SMTP on ${backend.name}`, () => {
  const services = servicesOn(backend)

  it.live("is delivered to the invitee, from the configured sender, naming the organization and the inviter", () =>
    Effect.gen(function*() {
      const smtp = yield* smtpServer
      yield* Effect.gen(function*() {
        const { actor, organization } = yield* owner
        const invite = yield* InviteService.use((s) =>
          s.create(actor, organization, bodyOf({ target_email: "Guest@Example.COM", first_name: "Grace", message: "See you on Monday." }))
        )
        assert.isTrue(invite.emailing_attempt_made)

        const row = yield* eventually(outboxRow(invite.id), (row) => row.sent_at !== null)
        assert.deepStrictEqual([row.recipient, row.attempts, row.last_error], ["Guest@example.com", 1, null])
        assert.strictEqual(smtp.received.length, 1)
        const [mail] = smtp.received
        assert.strictEqual(mail!.from, "invites@hedgerow.test")
        assert.deepStrictEqual(mail!.to, ["Guest@example.com"])
        const text = plainText(mail!.raw)
        assert.match(text, /^Subject: Admin invited you to join Acme Corp on Hedgerow\r?$/m)
        assert.match(text, /^To: Guest@example\.com\r?$/m)
        assert.match(text, /^From: Hedgerow Invites <invites@hedgerow\.test>\r?$/m)
        assert.include(text, "Hi Grace,")
        assert.include(text, "Admin (boss@acme.test) invited you to join the organization \"Acme Corp\" on Hedgerow as a member.")
        assert.include(text, "See you on Monday.")
        assert.include(text, `Your invite id is ${invite.id}. It is valid for 3 days.`)
      }).pipe(Effect.provide(services({
        HEDGEROW_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        HEDGEROW_MAIL_FROM: "Hedgerow Invites <invites@hedgerow.test>"
      })))
    }).pipe(Effect.scoped), { timeout: 60_000 })

  it.live("a dead mail server leaves the invite created and the answer unchanged; the outbox records each failed attempt", () =>
    Effect.gen(function*() {
      const port = yield* closedPort
      yield* Effect.gen(function*() {
        const { actor, organization } = yield* owner
        const invites = yield* InviteService
        const started = Date.now()
        const invite = yield* invites.create(actor, organization, bodyOf({ target_email: "nobody@acme.test" }))
        // The answer does not wait for the mail server: delivery happens after the request.
        assert.isBelow(Date.now() - started, 2_000)
        assert.isTrue(invite.emailing_attempt_made)
        const listed = yield* invites.list(actor, organization, {})
        assert.deepStrictEqual(listed.results, [invite])

        const first = yield* eventually(outboxRow(invite.id), (row) => row.attempts >= 1)
        assert.strictEqual(first.sent_at, null)
        assert.match(first.last_error ?? "", /ECONNREFUSED/)
        const last = yield* eventually(outboxRow(invite.id), (row) => row.attempts >= MAX_ATTEMPTS)
        assert.deepStrictEqual([last.attempts, last.sent_at], [MAX_ATTEMPTS, null])
        assert.match(last.last_error ?? "", /ECONNREFUSED/)
      }).pipe(Effect.provide(services({ HEDGEROW_SMTP_URL: `smtp://127.0.0.1:${port}` })))
    }), { timeout: 60_000 })

  it.live("send_email false records nothing and attempts nothing, even with a transport", () =>
    Effect.gen(function*() {
      const smtp = yield* smtpServer
      yield* Effect.gen(function*() {
        const { actor, organization } = yield* owner
        const invite = yield* InviteService.use((s) => s.create(actor, organization, bodyOf({ target_email: "silent@acme.test", send_email: false })))
        assert.isFalse(invite.emailing_attempt_made)
        const sql = yield* SqlClient.SqlClient
        assert.strictEqual((yield* sql`SELECT id FROM email_outbox`).length, 0)
        assert.strictEqual(smtp.received.length, 0)
      }).pipe(Effect.provide(services({ HEDGEROW_SMTP_URL: `smtp://127.0.0.1:${smtp.port}` })))
    }).pipe(Effect.scoped), { timeout: 60_000 })

  it.live("a HEDGEROW_SMTP_URL that is not an SMTP URL stops the service from starting, with a clear message", () =>
    Effect.gen(function*() {
      const refusal = { _tag: "SmtpConfigError", message: "HEDGEROW_SMTP_URL must look like smtp://user:password@host:port or smtps://…" } as const
      for (const url of ["http://mail.example", "mail.example:25", "smtp://", "smtps:///path"]) {
        assert.deepInclude(yield* Effect.flip(smtpUrlOf(url)), refusal)
      }
      assert.strictEqual(yield* smtpUrlOf("smtp://u:p@mail.example:2525?socketTimeout=5"), "smtp://u:p@mail.example:2525?socketTimeout=5&connectionTimeout=10000&greetingTimeout=10000")
      const failure = yield* Layer.build(services({ HEDGEROW_SMTP_URL: "http://mail.example" })).pipe(Effect.scoped, Effect.flip)
      assert.deepInclude(failure, refusal)
    }), { timeout: 60_000 })
}))
