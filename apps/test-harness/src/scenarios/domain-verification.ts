import assert from "node:assert/strict"
import type { Network } from "../network/index.ts"
import type { Target } from "../targets/target.ts"
import type { Discovered } from "../world.ts"
import { domainEndpoints, freshDomain } from "./domains.ts"
import { expectReply, invalid, type Scenario, withNetwork } from "./scenario.ts"

/**
 * Domain verification against the DNS server the harness configures its targets with: the challenge
 * published where Hedgerow looks for it (`_hedgerow-challenge.<domain>`, the default prefix) verifies the
 * domain; anything else leaves it as it was.
 */

const { create, list, retrieve, update, verify } = domainEndpoints

const ALREADY_VERIFIED = invalid(null, "This domain has already been verified.", "already_verified")
const MICROSECONDS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/

interface Domain {
  readonly id: string
  readonly domain: string
  readonly verification_challenge: string
  readonly is_verified: boolean
  readonly verified_at: string | null
}

/** A new domain of the primary organization, its name unique to this run. */
const newDomain = async (target: Target, primary: Discovered): Promise<Domain> => {
  const reply = await target.call(create, { key: primary.key, params: { organization_id: primary.organization }, body: { domain: freshDomain("dns") } })
  expectReply(reply, 201)
  return reply.body
}

const challengeRecordOf = (domain: Domain) => `_hedgerow-challenge.${domain.domain}`

/** Verifies and reads the domain back: the verify answer is always 200 with an empty body. */
const verifyAndRetrieve = async (target: Target, primary: Discovered, domain: Domain) => {
  const params = { organization_id: primary.organization, id: domain.id }
  expectReply(await target.call(verify, { key: primary.key, params }), 200, null)
  const after = await target.call(retrieve, { key: primary.key, params })
  expectReply(after, 200)
  return after.body as Domain
}

/** A new domain of the primary organization whose challenge the DNS server answers, verified. */
export const verifiedDomain = async (target: Target, primary: Discovered, network: Network) => {
  const domain = await newDomain(target, primary)
  network.publishTxt(challengeRecordOf(domain), ["v=spf1 -all", domain.verification_challenge])
  const verified = await verifyAndRetrieve(target, primary, domain)
  assert.equal(verified.is_verified, true)
  return verified
}

export const domainVerificationScenarios: ReadonlyArray<Scenario> = [
  withNetwork("verify with the challenge published in DNS answers 200 and the domain is verified; a second verify is 400 already_verified", async (target, primary, network) => {
    const domain = await newDomain(target, primary)
    network.publishTxt(challengeRecordOf(domain), [domain.verification_challenge])
    const verified = await verifyAndRetrieve(target, primary, domain)
    const { verified_at } = verified
    assert.match(verified_at ?? "", MICROSECONDS_Z)
    assert.ok(Math.abs(Date.parse(verified_at ?? "") - Date.now()) < 60_000, `verified_at ${verified_at} is now`)
    assert.deepEqual(verified, { ...domain, is_verified: true, verified_at })

    const params = { organization_id: primary.organization, id: domain.id }
    expectReply(await target.call(verify, { key: primary.key, params }), 400, ALREADY_VERIFIED)
    expectReply(await target.call(retrieve, { key: primary.key, params }), 200, verified)
    const listed = await target.call(list, { key: primary.key, params: { organization_id: primary.organization }, query: { limit: 1000 } })
    assert.deepEqual(listed.body.results.find((d: Domain) => d.id === domain.id), verified)
  }),
  withNetwork("once verified, JIT provisioning and SSO enforcement can be switched on and off", async (target, primary, network) => {
    const verified = await verifiedDomain(target, primary, network)
    const params = { organization_id: primary.organization, id: verified.id }
    const jit = await target.call(update, { key: primary.key, params, body: { jit_provisioning_enabled: true } })
    expectReply(jit, 200, { ...verified, jit_provisioning_enabled: true })
    const sso = await target.call(update, { key: primary.key, params, body: { sso_enforcement: "google-oauth2" } })
    expectReply(sso, 200, { ...verified, jit_provisioning_enabled: true, sso_enforcement: "google-oauth2" })
    expectReply(await target.call(retrieve, { key: primary.key, params }), 200, sso.body)
    const off = await target.call(update, { key: primary.key, params, body: { jit_provisioning_enabled: false, sso_enforcement: "" } })
    expectReply(off, 200, verified)
    expectReply(
      await target.call(update, { key: primary.key, params, body: { sso_enforcement: "okta" } }),
      400,
      invalid("sso_enforcement", "\"okta\" is not a valid choice.", "invalid_choice")
    )
  }),
  withNetwork("renaming a verified domain drops its verification, JIT provisioning and SSO enforcement", async (target, primary, network) => {
    const verified = await verifiedDomain(target, primary, network)
    const params = { organization_id: primary.organization, id: verified.id }
    expectReply(await target.call(update, { key: primary.key, params, body: { jit_provisioning_enabled: true, sso_enforcement: "github" } }), 200)
    const name = freshDomain("moved")
    const renamed = await target.call(update, { key: primary.key, params, body: { domain: name } })
    expectReply(renamed, 200)
    assert.deepEqual(
      [renamed.body.domain, renamed.body.is_verified, renamed.body.verified_at, renamed.body.jit_provisioning_enabled, renamed.body.sso_enforcement],
      [name, false, null, false, ""]
    )
    assert.notEqual(renamed.body.verification_challenge, verified.verification_challenge)
  }),
  withNetwork("a wrong TXT value, a name without TXT records and an absent record all leave the domain unverified", async (target, primary, network) => {
    const wrong = await newDomain(target, primary)
    network.publishTxt(challengeRecordOf(wrong), [`${wrong.verification_challenge}x`, "unrelated"])
    const empty = await newDomain(target, primary)
    network.publishTxt(challengeRecordOf(empty), [])
    const absent = await newDomain(target, primary)
    // The challenge at the bare name, not under the prefix, does not count.
    network.publishTxt(absent.domain, [absent.verification_challenge])
    for (const domain of [wrong, empty, absent]) {
      assert.deepEqual(await verifyAndRetrieve(target, primary, domain), domain, domain.domain)
    }
    // Still unverified means still locked, and a corrected record verifies on the next try.
    const params = { organization_id: primary.organization, id: wrong.id }
    const locked = invalid("jit_provisioning_enabled", "This attribute cannot be updated until the domain is verified.", "verification_required")
    expectReply(await target.call(update, { key: primary.key, params, body: { jit_provisioning_enabled: true } }), 400, locked)
    network.publishTxt(challengeRecordOf(wrong), [wrong.verification_challenge])
    assert.equal((await verifyAndRetrieve(target, primary, wrong)).is_verified, true)
  })
]
