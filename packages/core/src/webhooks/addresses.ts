import { isIP } from "node:net"

/**
 * Whether an address is one a webhook may reach without the operator's leave: not loopback, link-local,
 * private, unique-local, carrier-grade NAT, unspecified, multicast, broadcast or reserved. A receiver URL
 * can name anything, and a server that posts wherever it is told would reach the services behind it.
 */
export const isPublicAddress = (address: string): boolean => {
  const family = isIP(address)
  if (family === 4) return isPublicV4(v4Octets(address))
  if (family === 6) return isPublicV6(address)
  return false
}

const v4Octets = (address: string): ReadonlyArray<number> => address.split(".").map(Number)

const isPublicV4 = ([a = 0, b = 0, c = 0]: ReadonlyArray<number>): boolean =>
  !(
    a === 0 || // this network, unspecified
    a === 10 || // private
    a === 127 || // loopback
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local
    (a === 172 && b >= 16 && b <= 31) || // private
    (a === 192 && b === 0 && (c === 0 || c === 2)) || // protocol assignments, documentation
    (a === 192 && b === 168) || // private
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    (a === 198 && b === 51 && c === 100) || // documentation
    (a === 203 && b === 0 && c === 113) || // documentation
    a >= 224 // multicast, reserved, broadcast
  )

/** The eight 16-bit groups of an IPv6 address, a trailing dotted IPv4 part counted as two. */
const v6Groups = (address: string): ReadonlyArray<number> => {
  let text = address.toLowerCase().replace(/%.*$/, "")
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (dotted !== null) {
    const [a = 0, b = 0, c = 0, d = 0] = v4Octets(dotted[1]!)
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head = "", tail] = text.split("::")
  const left = head === "" ? [] : head.split(":")
  const right = tail === undefined || tail === "" ? [] : tail.split(":")
  const fill = tail === undefined ? [] : new Array<string>(8 - left.length - right.length).fill("0")
  return [...left, ...fill, ...right].map((group) => parseInt(group, 16))
}

const isPublicV6 = (address: string): boolean => {
  const g = v6Groups(address)
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g
  const v4 = [g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff]
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0) {
    // ::, ::1, and IPv4-mapped (::ffff:a.b.c.d) or IPv4-compatible addresses: judged as their IPv4 address.
    if (g5 === 0xffff || g5 === 0) return g5 === 0 && g6 === 0 && g7 <= 1 ? false : isPublicV4(v4)
    return false
  }
  // IPv4/IPv6 translation (64:ff9b::/96) carries an IPv4 address too.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return isPublicV4(v4)
  // Only global unicast (2000::/3) is public; the rest (unique-local, link-local, multicast, NAT64's
  // local-use 64:ff9b:1::/48, SIIT's ::ffff:0:0/96, discard 100::/64, unassigned space) is not.
  if ((g0 & 0xe000) !== 0x2000) return false
  if (g0 === 0x2001 && g1 < 0x0200) return false // protocol assignments 2001::/23, Teredo among them
  if (g0 === 0x2001 && g1 === 0x0db8) return false // documentation
  if (g0 === 0x2002) return isPublicV4([g1 >> 8, g1 & 0xff, g2 >> 8, g2 & 0xff]) // 6to4 names its IPv4 address
  if (g0 === 0x3fff && g1 < 0x1000) return false // documentation 3fff::/20
  return true
}

/** A URL's host as an address or a name: an IPv6 address without its brackets. */
export const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, "$1")
