import { FLAGS } from "../scenarios/feature-flags-support.ts"
import type { Reply, Target } from "../targets/target.ts"

/** Where the load writes: a project and a key allowed to write flags in it. */
export interface Tenant {
  readonly key: string
  readonly project: number
}

/**
 * Every write the load sent and what came of it. A flag's k-th PATCH sets its name to `n<k>`, and the
 * flags of one loop are written one request at a time, so a flag at version v must be named `n<v-1>`.
 */
export interface Ledger {
  /** Creates answered 201: key → the id of the answer. */
  readonly created: Map<string, number>
  /** PATCHes answered 200: flag id → the version of the latest answer (its name is `nameAt(version)`). */
  readonly patched: Map<number, number>
  /** Keys of creates that got no answer (the connection failed first). */
  readonly unansweredCreates: Set<string>
  /** Ids of flags with a PATCH that got no answer. */
  readonly unansweredPatches: Set<number>
  /** Answers that were neither a success nor a lost connection: the load expects none. */
  readonly unexpected: Array<string>
}

export const nameAt = (version: number) => `n${version - 1}`

export interface WriteLoad {
  readonly ledger: Ledger
  /** Acknowledged writes so far. */
  readonly acknowledged: () => number
  /** Requests sent and not yet answered or failed. */
  readonly inFlight: () => number
  /** Resolves once every loop has ended: told to stop, or its server is gone. */
  readonly settled: Promise<void>
  readonly stop: () => Promise<void>
}

/**
 * `loops` concurrent writers, each creating flags `<stem>-<loop>-<n>` and PATCHing each `patchesPerFlag`
 * times, one request at a time, until stopped or until a request fails to get any answer (the server
 * died); it never retries, so what the ledger says was acknowledged was answered exactly once.
 */
export const startWriteLoad = (
  target: Target,
  tenant: Tenant,
  options: { readonly stem: string; readonly loops: number; readonly patchesPerFlag: number }
): WriteLoad => {
  const ledger: Ledger = {
    created: new Map(),
    patched: new Map(),
    unansweredCreates: new Set(),
    unansweredPatches: new Set(),
    unexpected: []
  }
  let stopped = false
  let acknowledged = 0
  let inFlight = 0
  const params = { project_id: tenant.project }

  /** The reply, or undefined when the connection failed without one. */
  const send = async (request: () => Promise<Reply>): Promise<Reply | undefined> => {
    inFlight++
    try {
      return await request()
    } catch {
      return undefined
    } finally {
      inFlight--
    }
  }

  const loop = async (loopIndex: number) => {
    for (let n = 0; !stopped; n++) {
      const key = `${options.stem}-${loopIndex}-${n}`
      const created = await send(() => target.call(FLAGS.create, { key: tenant.key, params, body: { key, name: nameAt(1) } }))
      if (created === undefined) return void ledger.unansweredCreates.add(key)
      if (created.status !== 201) return void ledger.unexpected.push(`create ${key}: ${created.status} ${JSON.stringify(created.body)}`)
      ledger.created.set(key, created.body.id)
      acknowledged++
      const id: number = created.body.id
      for (let version = 2; version <= options.patchesPerFlag + 1 && !stopped; version++) {
        const body = { name: nameAt(version) }
        const patched = await send(() => target.call(FLAGS.update, { key: tenant.key, params: { ...params, id }, body }))
        if (patched === undefined) return void ledger.unansweredPatches.add(id)
        if (patched.status !== 200 || patched.body.version !== version || patched.body.name !== body.name) {
          return void ledger.unexpected.push(`patch ${id} to v${version}: ${patched.status} ${JSON.stringify(patched.body)}`)
        }
        ledger.patched.set(id, version)
        acknowledged++
      }
    }
  }

  const settled = Promise.all(Array.from({ length: options.loops }, (_, i) => loop(i))).then(() => undefined)
  return {
    ledger,
    acknowledged: () => acknowledged,
    inFlight: () => inFlight,
    settled,
    stop: () => {
      stopped = true
      return settled
    }
  }
}

/** Every live flag of the project, through the list endpoint's pages. */
export const allFlags = async (target: Target, tenant: Tenant): Promise<Array<any>> => {
  const flags: Array<any> = []
  for (let offset = 0;; offset += 1000) {
    const page = await target.call(FLAGS.list, { key: tenant.key, params: { project_id: tenant.project }, query: { limit: 1000, offset } })
    if (page.status !== 200) throw new Error(`flag list: ${page.status} ${JSON.stringify(page.body)}`)
    flags.push(...page.body.results)
    if (page.body.next === null) return flags
  }
}

/** Every flag activity entry of the project, through the project activity endpoint's pages. */
export const allFlagActivity = async (target: Target, tenant: Tenant): Promise<Array<any>> => {
  const entries: Array<any> = []
  for (let page = 1;; page++) {
    const reply = await target.call(FLAGS.projectActivity, { key: tenant.key, params: { project_id: tenant.project }, query: { limit: 1000, page } })
    if (reply.status !== 200) throw new Error(`project activity: ${reply.status} ${JSON.stringify(reply.body)}`)
    entries.push(...reply.body.results)
    if (reply.body.next === null) return entries
  }
}
