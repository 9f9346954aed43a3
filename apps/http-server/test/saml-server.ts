import { Bootstrap, bodyOf, DomainService, systemActor } from "@hedgerow/core"
import type { StoreOptions } from "@hedgerow/store"
import { ConfigProvider, Effect, Layer, type ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { HedgerowServer } from "../src/index.ts"
import { IDP_ENTITY_ID, type TestIdp } from "./saml-idp.ts"

/** The verified domain whose identity provider the SAML tests log people in with. */
export const SAML_DOMAIN = "acme.test"

/** A port free on loopback now, for a server that must know its own address before it starts. */
export const freePort = async () => {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve))
  const { port } = probe.address() as AddressInfo
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return port
}

/** A server of the site `site` on `port` (any free one when 0), over `store` (the embedded one unless told), with more of its environment in `env`. */
export const samlServerLayer = (
  site: string,
  { env = {}, port = 0, store = {} }: { readonly env?: Record<string, string>; readonly port?: number; readonly store?: StoreOptions } = {}
) =>
  HedgerowServer.layer({ port, host: "127.0.0.1", store, log: { level: "error", format: "json", sink: () => {} } }).pipe(
    Layer.provide(ConfigProvider.layerAdd(ConfigProvider.fromEnv({ env: { HEDGEROW_SITE_URL: site, ...env } }), { asPrimary: true }))
  )

/** A server of samlServerLayer, as a test runs it. */
export type SamlServer = ManagedRuntime.ManagedRuntime<Layer.Success<ReturnType<typeof samlServerLayer>>, Layer.Error<ReturnType<typeof samlServerLayer>>>

/**
 * The first organization and its verified JIT domain whose identity provider is `idp`, as an admin and a
 * DNS check would have set them up.
 */
export const samlDomain = (runtime: SamlServer, idp: TestIdp) =>
  runtime.runPromise(Effect.gen(function*() {
    const { organization_id } = yield* Bootstrap.use((b) => b.run({ email: "owner@example.com" }))
    const created = yield* DomainService.use((s) => s.create(systemActor, organization_id, bodyOf({ domain: SAML_DOMAIN })))
    yield* (yield* SqlClient.SqlClient)`UPDATE domains SET verified_at = now() WHERE id = ${created.id}`
    yield* DomainService.use((s) =>
      s.update(systemActor, organization_id, created.id, bodyOf({
        jit_provisioning_enabled: true,
        saml_entity_id: IDP_ENTITY_ID,
        saml_acs_url: idp.ssoUrl,
        saml_x509_cert: idp.keys.certificateBody
      })))
    return { organization: organization_id, domainId: created.id as string }
  }))
