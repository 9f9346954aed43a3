import { spawn } from "node:child_process"
import * as Config from "effect/Config"
import * as Console from "effect/Console"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { UsageError } from "../output.ts"
import { type ApiClient, withClient } from "../remote.ts"

/** RFC 8628: after `slow_down` a client waits this much longer between polls, for good. */
const SLOW_DOWN_STEP_SECONDS = 5

/** The command that opens a URL in the desktop's browser, by platform. */
const openerOf = (url: string): readonly [string, ReadonlyArray<string>] =>
  process.platform === "darwin" ? ["open", [url]]
  : process.platform === "win32" ? ["cmd", ["/c", "start", "", url]]
  : ["xdg-open", [url]]

/**
 * Whether a browser could show a page here: always on macOS and Windows; elsewhere only with a graphical
 * display (a terminal over SSH has none, and `xdg-open` would start a text browser in its place).
 */
const hasDisplay = Effect.gen(function*() {
  if (process.platform === "darwin" || process.platform === "win32") return true
  const display = yield* Config.option(Config.String("DISPLAY"))
  const wayland = yield* Config.option(Config.String("WAYLAND_DISPLAY"))
  return Option.isSome(display) || Option.isSome(wayland)
}).pipe(Effect.orElseSucceed(() => false))

/** Starts the browser on `url` and lets it run on its own; a browser that will not start changes nothing, as the URL is printed. */
const openInBrowser = (url: string) =>
  Effect.sync(() => {
    const [command, args] = openerOf(url)
    try {
      const child = spawn(command, args, { detached: true, stdio: "ignore" })
      child.on("error", () => {})
      child.unref()
    } catch {
      // Nothing to open it with: the printed URL is the way.
    }
  })

const expired = () => new UsageError({ message: "the code expired before it was approved: run hedgerow login --browser again" })

const codeOf = (error: unknown) => (error as { _tag?: unknown; code?: unknown })._tag === "ValidationError"
  ? (error as { code: string }).code
  : undefined

/**
 * Polls until the person approves the code, every `interval` seconds (longer after a `slow_down`), and
 * answers the key the approval gave; an expired or spent code is a usage error, and Ctrl-C stops the wait.
 */
const pollForKey = (client: ApiClient, device_code: string, interval: number) =>
  Effect.gen(function*() {
    let wait = interval
    for (;;) {
      yield* Effect.sleep(Duration.seconds(wait))
      const polled = yield* client.cliAuth.poll({ payload: { device_code } }).pipe(
        Effect.map((answer) => Option.some(answer)),
        Effect.catchIf((error) => codeOf(error) === "slow_down", () =>
          Effect.sync(() => {
            wait += SLOW_DOWN_STEP_SECONDS
            return Option.none()
          })),
        Effect.catchIf((error) => codeOf(error) === "expired_token", () =>
          Effect.fail(expired()))
      )
      if (Option.isSome(polled) && polled.value.status === "authorized") return polled.value.personal_api_key
    }
  })

/**
 * The browser log-in (RFC 8628's device flow): the server gives a code, the person approves it in the
 * console where they are logged in (by SSO or otherwise), and the CLI's poll receives a new `*` key of
 * theirs. The URL and the code are printed on stderr, so `--json` output stays one document.
 */
export const keyFromBrowser = (url: string, open: boolean) =>
  withClient(url, undefined, (client) =>
    Effect.gen(function*() {
      const grant = yield* client.cliAuth.deviceCode()
      yield* Console.error(`Open this page in a browser where you are logged in to Hedgerow, and check that it shows the code ${grant.user_code}:`)
      yield* Console.error(`  ${grant.verification_uri_complete}`)
      if (open && (yield* hasDisplay)) yield* openInBrowser(grant.verification_uri_complete)
      yield* Console.error(`Waiting for you to authorize it there (the code expires in ${Math.round(grant.expires_in / 60)} minutes; Ctrl-C to stop)...`)
      return yield* pollForKey(client, grant.device_code, grant.interval).pipe(
        Effect.timeoutOrElse({
          duration: Duration.seconds(grant.expires_in),
          orElse: () => Effect.fail(expired())
        })
      )
    }))
