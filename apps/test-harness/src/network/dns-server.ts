import { createServer, Packet } from "dns2"

/** An authoritative DNS server on loopback whose TXT records scenarios publish while a target runs. */
export interface DnsServer {
  /** `127.0.0.1:<port>`, as HEDGEROW_DNS_SERVERS takes it. */
  readonly address: string
  /**
   * From now on `name` answers exactly these TXT records, one string each (an empty list: the name exists
   * with no records). Names never published answer NXDOMAIN.
   */
  readonly publishTxt: (name: string, values: ReadonlyArray<string>) => void
  readonly close: () => Promise<void>
}

/** Starts the server (dns2, UDP, a free port on 127.0.0.1). */
export const startDnsServer = async (): Promise<DnsServer> => {
  const zone = new Map<string, ReadonlyArray<string>>()
  const server = createServer({
    udp: true,
    handle: (request, send) => {
      const question = request.questions[0]
      const records = question === undefined ? undefined : zone.get(question.name.toLowerCase())
      if (question === undefined || records === undefined) {
        send(Packet.createErrorResponseFromRequest(request, Packet.RCODE.NXDOMAIN))
        return
      }
      const response = Packet.createResponseFromRequest(request)
      response.header.aa = 1
      if (question.type === Packet.TYPE.TXT || question.type === Packet.TYPE.ANY) {
        for (const value of records) {
          // TTL 0: a record may change between two lookups of one scenario.
          response.answers.push(Packet.createResourceFromQuestion(question, { type: Packet.TYPE.TXT, ttl: 0, data: [value] }))
        }
      }
      send(response)
    }
  })
  const addresses = await server.listen({ udp: { port: 0, address: "127.0.0.1" } })
  return {
    address: `127.0.0.1:${addresses.udp!.port}`,
    publishTxt: (name, values) => {
      zone.set(name.toLowerCase(), [...values])
    },
    close: () => server.close()
  }
}
