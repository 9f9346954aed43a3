import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import { Command, Flag } from "effect/cli"
import { createRequire } from "node:module"
import * as path from "node:path"
import { localFlags, storeOf } from "../local.ts"
import { loadServer } from "../packages.ts"

export const serve = Command.make(
  "serve",
  {
    ...localFlags,
    port: Flag.Int("port").pipe(
      Flag.withDescription("Port to listen on (env PORT, default 8000)"),
      Flag.withFallbackConfig(Config.Int("PORT")),
      Flag.withDefault(8000)
    ),
    host: Flag.String("host").pipe(
      Flag.withDescription("Interface to bind (env HOST, default 127.0.0.1)"),
      Flag.withFallbackConfig(Config.String("HOST")),
      Flag.withDefault("127.0.0.1")
    )
  },
  ({ port, host, ...store }) =>
    Effect.flatMap(loadServer, ({ launch }) => launch({ port, host, store: storeOf(store), webConsoleDir: webConsoleDir() }))
).pipe(Command.withDescription(
  "Serve the API and the web console on the embedded store, or on PostgreSQL with --database-url; the first start bootstraps and prints a key"
))

/** The web console's build: apps/web's dist, which the build makes before this package's. */
const webConsoleDir = () => path.join(path.dirname(createRequire(import.meta.url).resolve("@hedgerow/web/package.json")), "dist")
