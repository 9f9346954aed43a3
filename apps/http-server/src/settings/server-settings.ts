import { Config, Context, Effect, Layer } from "effect"

/** How this deployment sits on the network. */
export interface ServerSettingsShape {
  /** Believe X-Forwarded-Proto/Host (set HEDGEROW_TRUST_PROXY=true behind a reverse proxy). */
  readonly trustProxy: boolean
  /**
   * The path the API is mounted under on a server that serves more than Hedgerow ("" at the root): the
   * mount strips it before routing, and the links the API sends put it back.
   */
  readonly basePath: string
}

export const ServerSettings = Context.Reference<ServerSettingsShape>("hedgerow/ServerSettings", {
  defaultValue: () => ({ trustProxy: false, basePath: "" })
})

/** The settings of a server mounted at `basePath`; HEDGEROW_TRUST_PROXY=true says a reverse proxy sets X-Forwarded-Proto/Host. */
export const serverSettingsFromConfig = (basePath: string) =>
  Layer.effect(
    ServerSettings,
    Effect.map(Config.Boolean("HEDGEROW_TRUST_PROXY").pipe(Config.withDefault(false)), (trustProxy) => ({ trustProxy, basePath }))
  )
