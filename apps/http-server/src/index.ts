/** The HTTP adapter: serves packages/api over core and the store. */
export * as App from "./app.ts"
export * as HedgerowServer from "./server.ts"
export type { ServerOptions } from "./server.ts"
export * from "./launch.ts"
export { type EmbeddedHedgerow, openHedgerow } from "./embed/open-hedgerow.ts"
export * as Embedding from "./embed/embedding.ts"
export type {
  EffectFlagReader,
  EmbeddedProject,
  EmbedOptions,
  FlagOptions,
  FlagReader,
  FlagValue,
  JsonValue
} from "./embed/embedding.ts"
export type { NodeListener } from "./embed/mount.ts"
export type * from "./endpoints/access.ts"
export { accessOf } from "./endpoints/access.ts"
export type * from "./endpoints/binding.ts"
export { bindGroup } from "./endpoints/binding.ts"
export type { NamedBinding, RunnableBinding } from "./endpoints/registry.ts"
export { bindingOf, bindingsOf, endpoints } from "./endpoints/registry.ts"
export { type Answer, answer, isAnswer } from "./answers/answer.ts"
export { envelopeResponse } from "./answers/envelope.ts"
export { setCookieHeaders } from "./answers/cookies.ts"
export { undecodedPart } from "./http-api/request-decoding.ts"
export { readJsonBody } from "./request/json-body.ts"
export { MAX_BODY_BYTES } from "./request/bounded-body.ts"
export { MAX_FORM_BYTES } from "./request/form-body.ts"
export * as ServerLog from "./log/server-log.ts"
export * from "./log/settings.ts"
export type { LineSink } from "./log/line-writer.ts"
