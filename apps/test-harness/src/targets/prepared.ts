import { createDatabase } from "@hedgerow/store/testing"
import type { Network } from "../network/index.ts"
import type { World } from "../world.ts"
import type { Target } from "./target.ts"

/** A target made by the harness, with the fixtures and servers it was made with. */
export interface Prepared {
  readonly target: Target
  readonly world: World
  /** The DNS and mail servers the target is configured with. */
  readonly network: Network
  readonly close: () => Promise<void>
}

/** The store a target keeps its data in: PGlite when no URL is given, else that PostgreSQL database. */
export interface TargetStore {
  readonly databaseUrl?: string | undefined
}

export type Prepare = (store?: TargetStore) => Promise<Prepared>

/**
 * What `prepare` makes, closing `release` after itself; when preparing fails, `release` runs at once, so a
 * half-made target leaves nothing behind.
 */
export const closingAfter = async <P extends { readonly close: () => Promise<void> }>(
  release: () => Promise<void>,
  prepare: () => Promise<P>
): Promise<P> => {
  let prepared: P
  try {
    prepared = await prepare()
  } catch (error) {
    await release()
    throw error
  }
  const close = async () => {
    try {
      await prepared.close()
    } finally {
      await release()
    }
  }
  return { ...prepared, close }
}

/**
 * Prepares a target on a new database of its own on the PostgreSQL server `serverUrl` points at (its user
 * needs CREATEDB); the database is dropped when the target closes.
 */
export const onFreshDatabase = async (serverUrl: string, prepare: Prepare): Promise<Prepared> => {
  const database = await createDatabase(serverUrl, "hedgerow_conformance")
  return closingAfter(database.drop, () => prepare({ databaseUrl: database.url }))
}
