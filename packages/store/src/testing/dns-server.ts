import * as dgram from "node:dgram"
import { isIP } from "node:net"

/** What a name answers: its addresses, or "silent" for a server that never replies to it. */
export type DnsAnswers = Readonly<Record<string, ReadonlyArray<string> | "silent">>

const TYPE_A = 1
const TYPE_AAAA = 28

const ipv6Bytes = (address: string): Buffer => {
  const [head = "", tail = ""] = address.split("::")
  const groups = (part: string) => part === "" ? [] : part.split(":")
  const missing = 8 - groups(head).length - groups(tail).length
  const all = [...groups(head), ...Array<string>(address.includes("::") ? missing : 0).fill("0"), ...groups(tail)]
  return Buffer.from(all.flatMap((group) => [Number.parseInt(group, 16) >> 8, Number.parseInt(group, 16) & 0xff]))
}

/** The reply to one query: its id and question, then an answer for each address of the asked family. */
const replyTo = (query: Buffer, answers: DnsAnswers): Buffer | undefined => {
  const labels: Array<string> = []
  let at = 12
  while (at < query.length && query[at] !== 0) {
    const length = query[at]!
    labels.push(query.subarray(at + 1, at + 1 + length).toString("latin1"))
    at += length + 1
  }
  const questionEnd = at + 5
  if (questionEnd > query.length) return undefined
  const type = query.readUInt16BE(at + 1)
  const answer = answers[labels.join(".").toLowerCase()]
  if (answer === "silent") return undefined
  const family = type === TYPE_A ? 4 : type === TYPE_AAAA ? 6 : 0
  const addresses = (answer ?? []).filter((address) => isIP(address) === family)
  const header = Buffer.alloc(12)
  query.copy(header, 0, 0, 2)
  // A response to a recursive query, recursion available; NXDOMAIN for a name it does not know.
  header.writeUInt16BE(answer === undefined ? 0x8183 : 0x8180, 2)
  header.writeUInt16BE(1, 4)
  header.writeUInt16BE(addresses.length, 6)
  const records = addresses.map((address) => {
    const data = family === 4 ? Buffer.from(address.split(".").map(Number)) : ipv6Bytes(address)
    const record = Buffer.alloc(12)
    // The name as a pointer to the question's, then type, class IN, a minute's TTL and the data's length.
    record.writeUInt16BE(0xc00c, 0)
    record.writeUInt16BE(type, 2)
    record.writeUInt16BE(1, 4)
    record.writeUInt32BE(60, 6)
    record.writeUInt16BE(data.length, 10)
    return Buffer.concat([record, data])
  })
  return Buffer.concat([header, query.subarray(12, questionEnd), ...records])
}

/** A DNS server on loopback (UDP) answering A and AAAA queries from `answers`, for a resolver's `setServers`. */
export const startDnsServer = async (answers: DnsAnswers) => {
  const socket = dgram.createSocket("udp4")
  let queries = 0
  socket.on("message", (query, peer) => {
    queries++
    const reply = replyTo(query, answers)
    if (reply !== undefined) socket.send(reply, peer.port, peer.address)
  })
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve))
  return {
    address: `127.0.0.1:${socket.address().port}`,
    queries: () => queries,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve()))
  }
}
