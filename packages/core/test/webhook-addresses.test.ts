import { describe, expect, it } from "vitest"
import { isPublicAddress } from "../src/webhooks/addresses.ts"
import { newWebhookSecret, secretKeyOf, signedHeaders } from "../src/webhooks/signature.ts"
import { createHmac } from "node:crypto"

describe("which addresses a webhook may reach", () => {
  it("refuses loopback, private, link-local, unique-local, unspecified, multicast and reserved addresses", () => {
    const refused = [
      "127.0.0.1", "127.255.255.254", "10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.0.1", "169.254.169.254",
      "100.64.0.1", "0.0.0.0", "224.0.0.1", "255.255.255.255", "240.0.0.1", "192.0.2.1", "198.18.0.1",
      "::", "::1", "fe80::1", "fc00::1", "fd12:3456::1", "ff02::1", "fec0::1", "2001:db8::1",
      "::ffff:127.0.0.1", "::ffff:7f00:1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "::127.0.0.1",
      "64:ff9b::a00:1", "2002:7f00:1::", "fe80::1%eth0", "not an address", ""
    ]
    for (const address of refused) expect([address, isPublicAddress(address)]).toEqual([address, false])
  })

  it("refuses IPv6 outside global unicast and the forms that reach IPv4 through a local translator", () => {
    const refused = [
      "::ffff:0:127.0.0.1", "::ffff:0:a00:1", "64:ff9b:1::a00:1", "100::1", "::1:0:0:1", "5f00::1",
      "2001::1", "2001:0:4136:e378:8000:63bf:3fff:fdd2", "2001:10::1", "3fff::1"
    ]
    for (const address of refused) expect([address, isPublicAddress(address)]).toEqual([address, false])
  })

  it("accepts public IPv4 and IPv6 addresses, mapped ones too", () => {
    const accepted = ["93.184.215.14", "8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1"]
    for (const address of accepted) expect([address, isPublicAddress(address)]).toEqual([address, true])
  })
})

describe("webhook secrets and signatures", () => {
  it("makes whsec_ secrets of 32 random bytes and reads back only well-formed ones of 24 to 64 bytes", () => {
    const secret = newWebhookSecret()
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(secretKeyOf(secret)?.length).toBe(32)
    expect(newWebhookSecret()).not.toBe(secret)
    for (const bad of ["whsec_", "whsec_abc", `whsec_${Buffer.alloc(23).toString("base64")}`, `whsec_${Buffer.alloc(65).toString("base64")}`, `wh_${Buffer.alloc(32).toString("base64")}`]) {
      expect(secretKeyOf(bad)).toBeUndefined()
    }
    expect(secretKeyOf(`whsec_${Buffer.alloc(24).toString("base64")}`)?.length).toBe(24)
  })

  it("signs id.timestamp.body with HMAC-SHA256 under the secret's key", () => {
    const key = Buffer.alloc(32, 9)
    const headers = signedHeaders(`whsec_${key.toString("base64")}`, "msg_1", 1700000000, "{\"a\":1}")
    const expected = createHmac("sha256", key).update("msg_1.1700000000.{\"a\":1}").digest("base64")
    expect(headers).toEqual({ "webhook-id": "msg_1", "webhook-timestamp": "1700000000", "webhook-signature": `v1,${expected}` })
  })
})
