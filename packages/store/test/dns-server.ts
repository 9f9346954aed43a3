import { Context, Effect, Layer } from "effect"
import { createServer, Packet } from "dns2"

/** What the test zone answers for a name; unknown names are NXDOMAIN. */
export type ZoneAnswer =
  /** TXT records, sent after `delayMs` when given (a slow resolver). */
  | { readonly txt: ReadonlyArray<ReadonlyArray<string>>; readonly delayMs?: number }
  | "nxdomain"
  | "servfail"
  /** Never answers, like a server behind a dead link. */
  | "silent"

export interface TestDnsServer {
  /** `127.0.0.1:<port>`, as HEDGEROW_DNS_SERVERS takes it. */
  readonly address: string
  readonly zone: Map<string, ZoneAnswer>
  /** Every name asked, in order. */
  readonly queries: Array<string>
}

/** A real DNS server (dns2, UDP) on loopback, answering from a zone the test fills in. */
export class TestDns extends Context.Service<TestDns, TestDnsServer>()("test/TestDns") {
  static readonly layer = Layer.effect(
    TestDns,
    Effect.acquireRelease(
      Effect.promise(async () => {
        const zone = new Map<string, ZoneAnswer>()
        const queries: Array<string> = []
        const server = createServer({
          udp: true,
          handle: (request, send) => {
            const question = request.questions[0]!
            const name = question.name.toLowerCase()
            queries.push(name)
            const answer = zone.get(name) ?? "nxdomain"
            if (answer === "silent") return
            const response = Packet.createResponseFromRequest(request)
            if (answer === "nxdomain") response.header.rcode = Packet.RCODE.NXDOMAIN
            else if (answer === "servfail") response.header.rcode = Packet.RCODE.SERVFAIL
            else {
              for (const strings of answer.txt) {
                response.answers.push({ name: question.name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 60, data: [...strings] } as never)
              }
            }
            if (typeof answer === "object" && answer.delayMs !== undefined) setTimeout(() => send(response), answer.delayMs)
            else send(response)
          }
        })
        const addresses = await server.listen({ udp: { port: 0, address: "127.0.0.1" } })
        return { server, handle: { address: `127.0.0.1:${addresses.udp!.port}`, zone, queries } }
      }),
      ({ server }) => Effect.promise(() => server.close())
    ).pipe(Effect.map(({ handle }) => handle))
  )
}
