import { createHash } from "node:crypto"
import { readdir, readFile } from "node:fs/promises"
import * as path from "node:path"
import { Data, Effect } from "effect"

/** One file of the console's build, held in memory: its bytes, and the gzip of them written beside it at build time. */
export interface ConsoleFile {
  readonly body: Uint8Array
  readonly gzip: Uint8Array | undefined
  readonly contentType: string
}

/** The console's build as the server answers it: the page every console URL loads, and its hashed assets by name. */
export interface ConsoleSite {
  readonly index: ConsoleFile & { readonly etag: string }
  readonly assets: ReadonlyMap<string, ConsoleFile>
}

/** `hedgerow serve` was pointed at a console that is not built: it refuses to start rather than serve without it. */
export class ConsoleNotBuilt extends Data.TaggedError("ConsoleNotBuilt")<{ readonly message: string }> {}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2"
}

const contentTypeOf = (name: string) => CONTENT_TYPES[path.extname(name)] ?? "application/octet-stream"

const readOptional = (file: string) =>
  Effect.promise(() => readFile(file).then((bytes): Uint8Array | undefined => bytes, () => undefined))

const fileOf = (file: string, body: Uint8Array) =>
  Effect.map(readOptional(`${file}.gz`), (gzip): ConsoleFile => ({ body, gzip, contentType: contentTypeOf(file) }))

/**
 * Reads the built console in `dir` (apps/web's dist: index.html and assets/) into memory, once at start:
 * a few hundred kilobytes, so that no request touches the disk or can name a file outside it.
 */
export const loadSite = (dir: string): Effect.Effect<ConsoleSite, ConsoleNotBuilt> =>
  Effect.gen(function*() {
    const indexFile = path.join(dir, "index.html")
    const index = yield* readOptional(indexFile)
    if (index === undefined) {
      return yield* new ConsoleNotBuilt({ message: `the web console is not built (no ${indexFile}); run \`npm run build\`` })
    }
    const assetsDir = path.join(dir, "assets")
    const names = yield* Effect.promise(() => readdir(assetsDir).catch(() => [] as Array<string>))
    const assets = new Map<string, ConsoleFile>()
    for (const name of names.filter((name) => !name.endsWith(".gz"))) {
      const body = yield* readOptional(path.join(assetsDir, name))
      if (body !== undefined) assets.set(name, yield* fileOf(path.join(assetsDir, name), body))
    }
    const etag = `"${createHash("sha256").update(index).digest("base64url").slice(0, 22)}"`
    return { index: { ...(yield* fileOf(indexFile, index)), etag }, assets }
  })
