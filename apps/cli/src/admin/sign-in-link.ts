import type { SignInLinkIssued, Timestamp } from "@hedgerow/core"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Argument, Command } from "effect/cli"
import { inProcess, localFlags } from "../local.ts"
import { emit, jsonFlag } from "../output.ts"
import { loadServer } from "../packages.ts"

/** What the command prints: the link itself in place of its secret, and the site it assumed when none was set. */
interface MadeLink {
  readonly email: string
  readonly url: string
  readonly expires_at: Timestamp
  readonly sso_enforcement: SignInLinkIssued["sso_enforcement"]
  /** False when HEDGEROW_SITE_URL is unset and the link names the default address. */
  readonly site_url_set: boolean
}

/** `expiry` words the link's end as core does; core is loaded only when the command runs. */
const render = (expiry: (at: Timestamp) => string) => (made: MadeLink) =>
  [
    `One-time sign-in link for ${made.email}; it works once, until ${expiry(made.expires_at)}, and any earlier link of theirs no longer works:`,
    `  ${made.url}`,
    ...(made.site_url_set ? [] : [
      `HEDGEROW_SITE_URL is not set, so the link names the default address, ${new URL(made.url).origin}: for a server started with another --port or --host, change the address before the # (the secret after it stays), or set HEDGEROW_SITE_URL to where people reach the server.`
    ]),
    ...(made.sso_enforcement === null
      ? []
      : [`Their e-mail's domain enforces SSO (${made.sso_enforcement}), so the link is refused, as a password is, until that domain's SSO enforcement is switched off.`])
  ].join("\n")

// The site's address is read (and checked) as the server reads it, before the store is opened.
export const signInLink = Command.make(
  "sign-in-link",
  {
    ...localFlags,
    email: Argument.String("email").pipe(Argument.withDescription("The user's e-mail")),
    json: jsonFlag
  },
  ({ email, json, ...store }) =>
    Effect.flatMap(loadServer, ({ configuredSiteUrl }) => configuredSiteUrl).pipe(
      Effect.flatMap((configured) =>
        inProcess(store, ({ DEFAULT_SITE_URL, linkExpiryText, signInLinkUrl, SignInLinkService, systemActor }) =>
          SignInLinkService.use((s) => s.issue(systemActor, { email })).pipe(
            Effect.map((issued): MadeLink => ({
              email: issued.email,
              url: signInLinkUrl(Option.getOrElse(configured, () => DEFAULT_SITE_URL), issued.token),
              expires_at: issued.expires_at,
              sso_enforcement: issued.sso_enforcement,
              site_url_set: Option.isSome(configured)
            })),
            Effect.flatMap(emit(json, render(linkExpiryText)))
          ))
      )
    )
).pipe(Command.withDescription(
  "Print a one-time link that signs the user in to the web console (HEDGEROW_SITE_URL's address), for 24 hours; it replaces their earlier link"
))
