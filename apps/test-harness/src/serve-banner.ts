import type { ServerProcess } from "./targets/server-process.ts"

/** The tenant `hedgerow serve` creates on an empty store, as its banner prints it (apps/http-server/src/launch.ts). */
export interface FirstStart {
  readonly organization: string
  readonly project: number
  readonly email: string
  /** The personal API key with scope `*`. */
  readonly key: string
}

/** What a start on a store that is already bootstrapped prints instead of the key. */
export const NOT_FIRST_START = "Call it with a personal API key"

/** The banner's last line: once it is out, the banner is complete. */
const BANNER_END = "Ctrl-C stops the server cleanly."

/** The server's output once its whole banner is printed. */
export const bannerOf = async (server: ServerProcess, timeoutMs = 10_000): Promise<string> => {
  const deadline = Date.now() + timeoutMs
  while (!server.output().includes(BANNER_END)) {
    if (Date.now() > deadline) throw new Error(`no complete banner in time:\n${server.output()}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return server.output()
}

/** The first-start tenant of a banner, or undefined when this start did not bootstrap. */
export const firstStartOf = (banner: string): FirstStart | undefined => {
  const tenant = /^First start: created organization (\S+), project (\d+) and owner (\S+)\.$/m.exec(banner)
  const key = /^Personal API key with scope \* \(shown only this once, keep it\): (phx_\w+)$/m.exec(banner)
  if (tenant === null || key === null) return undefined
  return { organization: tenant[1]!, project: Number(tenant[2]), email: tenant[3]!, key: key[1]! }
}
