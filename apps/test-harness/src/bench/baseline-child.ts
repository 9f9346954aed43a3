// The baseline as a process of its own: a bare node:http server answering every request with the bytes
// of the file named by its first argument and the status given as its second, on a free loopback port it
// prints. Nothing but Node is loaded, so its CPU per request is the floor for that answer.
import { readFileSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { fixedAnswer } from "./fixed-answer.ts"

const [bodyFile, status] = process.argv.slice(2)
const server = createServer(fixedAnswer(readFileSync(bodyFile!), Number(status)))
server.listen(0, "127.0.0.1", () => {
  console.log(`baseline serving on http://127.0.0.1:${(server.address() as AddressInfo).port}`)
})
