import { parentPort } from "node:worker_threads"
import { detailOf, readSignedResponse } from "./read-signed.ts"

/**
 * The signature worker: reads one SAML Response at a time, off the server's event loop. A message is
 * `{ id, document, certificate }`; the answer `{ id, response }` or `{ id, detail }` for a refusal.
 */
parentPort?.on("message", (message: { readonly id: number; readonly document: string; readonly certificate: string }) => {
  try {
    parentPort!.postMessage({ id: message.id, response: readSignedResponse(message.document, message.certificate) })
  } catch (error) {
    parentPort!.postMessage({ id: message.id, detail: detailOf(error) })
  }
})
