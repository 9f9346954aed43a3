/** Test support shared by the store, server, CLI and harness suites; not part of the runtime. */
export * from "./backends.ts"
export * from "./databases.ts"
export * from "./webhook-receiver.ts"
export * from "./dns-server.ts"
