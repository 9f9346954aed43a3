/** The HTTP adapter: serves packages/api over core and the store. */
export * from "./app.ts"
export * from "./server.ts"
export * from "./launch.ts"
export * from "./endpoints/index.ts"
export { envelopeResponse } from "./middleware/error-envelope.ts"
export { undecodedPart } from "./middleware/request-decoding.ts"
export { readJsonBody, MAX_BODY_BYTES } from "./body.ts"
