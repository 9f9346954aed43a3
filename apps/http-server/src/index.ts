/** The HTTP adapter: serves packages/api over core and the store. */
export * as App from "./app.ts"
export * as HedgerowServer from "./server.ts"
export type { ServerOptions } from "./server.ts"
export * from "./launch.ts"
export * from "./endpoints/index.ts"
export { envelopeResponse } from "./middleware/error-envelope.ts"
export { undecodedPart } from "./middleware/request-decoding.ts"
export { readJsonBody, MAX_BODY_BYTES } from "./body.ts"
