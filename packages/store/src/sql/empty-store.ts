import { existsSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import * as path from "node:path"
import { migrationsFingerprint } from "../migrations/index.ts"

/**
 * A new embedded store starts as a copy of an empty one: PGlite's initdb cluster with every migration
 * applied, made when this package is built and kept in its dist/empty-store/. Making that at a first
 * start costs seconds of CPU (PGlite runs initdb in a second PostgreSQL of its own); copying it costs a
 * fraction of one. The copy is named by the PGlite version and the migrations it was made with, so a
 * build of other ones is never used, and a store is then made the long way. The migrations still run at
 * every start, and find nothing to do.
 */
const require = createRequire(import.meta.url)

/** The file name of the empty store this code makes, and would use. */
export const emptyStoreName = (): string => {
  const pglite = path.join(path.dirname(require.resolve("@electric-sql/pglite")), "..", "package.json")
  const { version } = JSON.parse(readFileSync(pglite, "utf8")) as { version: string }
  return `pglite-${version}-${migrationsFingerprint()}.tar.gz`
}

/** The empty store of this code, as an archive PGlite loads, or undefined when the build has none. */
export const emptyStore = (): Blob | undefined => {
  let file: string
  try {
    file = require.resolve(`@hedgerow/store/empty-store/${emptyStoreName()}`)
  } catch {
    return undefined
  }
  return existsSync(file) ? new Blob([readFileSync(file)], { type: "application/gzip" }) : undefined
}
