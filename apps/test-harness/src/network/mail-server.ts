import type { AddressInfo } from "node:net"
import { SMTPServer } from "smtp-server"

/** One message as the mail server received it. */
export interface ReceivedMail {
  /** The envelope's sender (MAIL FROM). */
  readonly from: string
  /** The envelope's recipients (RCPT TO), as sent. */
  readonly to: ReadonlyArray<string>
  /** Header fields by lower-cased name, folded lines joined, encoded words left as sent. */
  readonly headers: ReadonlyMap<string, string>
  /** The body as text: transfer encoding undone, line ends `\n`. */
  readonly text: string
}

/** An SMTP server on loopback that keeps every message it accepts, for scenarios to read. */
export interface MailServer {
  /** `smtp://127.0.0.1:<port>`, as HEDGEROW_SMTP_URL takes it. */
  readonly url: string
  /** Everything received so far, oldest first. */
  readonly mailbox: () => ReadonlyArray<ReceivedMail>
  /** The first message to `to` (received already, or as soon as it arrives); rejects after `timeoutMs`. */
  readonly waitForMail: (to: string, timeoutMs?: number) => Promise<ReceivedMail>
  readonly close: () => Promise<void>
}

/** Generous for a loopback delivery; only a missing message waits this long. */
const DEFAULT_WAIT_MS = 10_000

const headersOf = (head: string): ReadonlyMap<string, string> => {
  const headers = new Map<string, string>()
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":")
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim())
  }
  return headers
}

const textOf = (body: string, encoding: string | undefined): string => {
  switch (encoding?.toLowerCase()) {
    case "quoted-printable":
      // Soft breaks out, then `=XX` octets as percent escapes so multi-byte UTF-8 decodes whole.
      return decodeURIComponent(body.replace(/=\r?\n/g, "").replace(/%/g, "%25").replace(/=([0-9A-Fa-f]{2})/g, "%$1"))
        .replace(/\r\n/g, "\n")
    case "base64":
      return Buffer.from(body, "base64").toString("utf8").replace(/\r\n/g, "\n")
    default:
      return body.replace(/\r\n/g, "\n")
  }
}

const parse = (raw: string, from: string, to: ReadonlyArray<string>): ReceivedMail => {
  const split = /\r?\n\r?\n/.exec(raw)
  const head = split === null ? raw : raw.slice(0, split.index)
  const body = split === null ? "" : raw.slice(split.index + split[0].length)
  const headers = headersOf(head)
  return { from, to, headers, text: textOf(body, headers.get("content-transfer-encoding")) }
}

/** Starts the server on a free port of 127.0.0.1: plain SMTP, any sender, any recipient, no login. */
export const startMailServer = async (): Promise<MailServer> => {
  const received: Array<ReceivedMail> = []
  const waiters = new Set<{ readonly to: string; readonly resolve: (mail: ReceivedMail) => void }>()

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    disableReverseLookup: true,
    closeTimeout: 1_000,
    onData(stream, session, done) {
      const chunks: Array<Buffer> = []
      stream.on("data", (chunk: Buffer) => chunks.push(chunk))
      stream.on("end", () => {
        const mail = parse(
          Buffer.concat(chunks).toString("utf8"),
          session.envelope.mailFrom === false ? "" : session.envelope.mailFrom.address,
          session.envelope.rcptTo.map((recipient) => recipient.address)
        )
        received.push(mail)
        for (const waiter of waiters) {
          if (mail.to.includes(waiter.to)) waiter.resolve(mail)
        }
        done()
      })
    }
  })
  let failStart: ((error: Error) => void) | undefined
  // Errors of single connections (a client hanging up) come here too: they must not end the run, and a
  // message lost that way shows as one that never arrived.
  server.on("error", (error) => failStart?.(error))
  await new Promise<void>((resolve, reject) => {
    failStart = reject
    server.listen(0, "127.0.0.1", () => {
      failStart = undefined
      resolve()
    })
  })
  const { port } = server.server.address() as AddressInfo

  const waitForMail = (to: string, timeoutMs = DEFAULT_WAIT_MS) => {
    const already = received.find((mail) => mail.to.includes(to))
    if (already !== undefined) return Promise.resolve(already)
    return new Promise<ReceivedMail>((resolve, reject) => {
      const waiter = {
        to,
        resolve: (mail: ReceivedMail) => {
          clearTimeout(timer)
          waiters.delete(waiter)
          resolve(mail)
        }
      }
      const timer = setTimeout(() => {
        waiters.delete(waiter)
        const latest = received.slice(-5).flatMap((mail) => mail.to)
        reject(new Error(`no e-mail to ${to} within ${timeoutMs} ms; ${received.length} received, the latest to: ${latest.join(", ") || "nobody"}`))
      }, timeoutMs)
      waiters.add(waiter)
    })
  }

  return {
    url: `smtp://127.0.0.1:${port}`,
    mailbox: () => [...received],
    waitForMail,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
