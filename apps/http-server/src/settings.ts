import { Context } from "effect"

/** How this deployment sits on the network. */
export interface ServerSettingsShape {
  /** Believe X-Forwarded-Proto/Host (set HEDGEROW_TRUST_PROXY=true behind a reverse proxy). */
  readonly trustProxy: boolean
}

export const ServerSettings = Context.Reference<ServerSettingsShape>("hedgerow/ServerSettings", {
  defaultValue: () => ({ trustProxy: false })
})
