/** The HTTP adapter: serves packages/api over core and the store. */
export * as App from "./app.ts"
export * as HedgerowServer from "./server.ts"
export type { ServerOptions } from "./server.ts"
export * from "./launch.ts"
export { type EmbeddedHedgerow, openHedgerow } from "./embed/open-hedgerow.ts"
export * as Embedding from "./embed/embedding.ts"
export type {
  EffectEmbeddedFlags,
  EmbeddedFlags,
  EmbeddedProject,
  EmbedOptions,
  FlagOptions,
  FlagValue,
  JsonValue
} from "./embed/embedding.ts"
export type { NodeListener } from "./embed/mount.ts"
export * from "./endpoints/index.ts"
export { envelopeResponse } from "./middleware/error-envelope.ts"
export { undecodedPart } from "./middleware/request-decoding.ts"
export { readJsonBody, MAX_BODY_BYTES } from "./body.ts"
export { MAX_FORM_BYTES } from "./form-body.ts"
export { setCookieHeaders } from "./cookies.ts"
export * as ServerLog from "./log/server-log.ts"
export * from "./log/settings.ts"
export type { LineSink } from "./log/line-writer.ts"
