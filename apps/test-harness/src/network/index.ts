import { startDnsServer } from "./dns-server.ts"
import { type ReceivedMail, startMailServer } from "./mail-server.ts"

export type { ReceivedMail } from "./mail-server.ts"

/**
 * What scenarios can do with the DNS and mail servers a harness-made target is configured with: publish
 * the TXT records domain verification looks up, and read the invite e-mails it sends.
 */
export interface Network {
  /** From now on `name` answers exactly these TXT records; names never published are NXDOMAIN. */
  readonly publishTxt: (name: string, values: ReadonlyArray<string>) => void
  /** Every message the mail server has received, oldest first. */
  readonly mailbox: () => ReadonlyArray<ReceivedMail>
  /** The first message to `to`, waiting for it until `timeoutMs` (10 s by default). */
  readonly waitForMail: (to: string, timeoutMs?: number) => Promise<ReceivedMail>
}

/** The sender the harness configures, so scenarios can tell HEDGEROW_MAIL_FROM reached the target. */
export const HARNESS_MAIL_FROM = { name: "Hedgerow Conformance", address: "conformance@hedgerow.test" } as const

/** Our server answers at once; a lookup that waits this long has already gone wrong. */
const DNS_TIMEOUT_MS = 1_000

export interface LocalNetwork {
  readonly network: Network
  /** The settings that point Hedgerow at these servers, as an operator would give them. */
  readonly env: Readonly<Record<string, string>>
  readonly close: () => Promise<void>
}

/** A DNS server and a mail server on loopback, one pair per target so each target's mailbox is its own. */
export const startNetwork = async (): Promise<LocalNetwork> => {
  const dns = await startDnsServer()
  const mail = await startMailServer().catch(async (error: unknown) => {
    await dns.close()
    throw error
  })
  return {
    network: { publishTxt: dns.publishTxt, mailbox: mail.mailbox, waitForMail: mail.waitForMail },
    env: {
      HEDGEROW_DNS_SERVERS: dns.address,
      HEDGEROW_DNS_TIMEOUT_MS: String(DNS_TIMEOUT_MS),
      HEDGEROW_SMTP_URL: mail.url,
      HEDGEROW_MAIL_FROM: `${HARNESS_MAIL_FROM.name} <${HARNESS_MAIL_FROM.address}>`
    },
    close: async () => {
      await Promise.all([dns.close(), mail.close()])
    }
  }
}
