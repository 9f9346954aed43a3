/**
 * The HTTP adapter: serves packages/api over core and the store, on a server of its own or mounted in
 * another application's. Its folders, from what a request meets first:
 *
 * - node-server.ts, server.ts, app.ts, launch.ts: the Node server, the routes and middleware put
 *   together, and `hedgerow serve`;
 * - sdk-lane/: the SDKs' two most frequent requests, answered beside HttpApi;
 * - middleware/: around every route: the request log, CORS, the error envelope and its fallbacks for a
 *   request no route matches (404, 405, the web console's pages);
 * - http-api/: HttpApi's handlers for the endpoints' bindings, and the contract's two middlewares;
 * - api-docs/: the OpenAPI document and its docs page, each made once, at its first visit;
 * - request/: what is read of a request: its URL, its session, its bodies (JSON, forms, the SDKs');
 * - endpoints/: each endpoint of the contract bound to its core call, one file per group;
 * - answers/: what goes out: endpoint answers, error envelopes, cookies, the logged 500;
 * - settings/: the server's settings from the environment; log/: the request log;
 * - observe/: what the server tells its operators: Prometheus metrics on a listener of their own,
 *   readiness, and OpenTelemetry traces when configured;
 * - web-console/: the console's build, served beside the API; embed/: Hedgerow inside a Node application.
 */
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
export type * from "./endpoints/access.ts"
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
export { configuredSiteUrl, SiteConfigError } from "./settings/site.ts"
export type { LineSink } from "./log/line-writer.ts"
