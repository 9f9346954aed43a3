import { DEFAULT_SITE_URL, type Site, SiteSettings } from "@hedgerow/core"
import { Config, Data, Effect, Layer, Option } from "effect"

/** A site URL the operator got wrong: the server refuses to start rather than mail broken links. */
export class SiteConfigError extends Data.TaggedError("SiteConfigError")<{ readonly message: string }> {}

/**
 * HEDGEROW_SITE_URL: where people reach this deployment, `http(s)://host[:port]` with an optional path
 * prefix, kept without its trailing slash. Invite e-mails link there, and on https cookies are Secure.
 */
export const siteFromConfig = Effect.gen(function*() {
  return { url: Option.getOrElse(yield* configuredSiteUrl, () => DEFAULT_SITE_URL) } satisfies Site
})

/** HEDGEROW_SITE_URL as the operator set it (checked, without its trailing slash), or none when unset or empty. */
export const configuredSiteUrl = Effect.gen(function*() {
  const raw = Option.getOrElse(yield* Config.option(Config.String("HEDGEROW_SITE_URL")), () => "").trim()
  if (raw === "") return Option.none<string>()
  const url = URL.canParse(raw) ? new URL(raw) : undefined
  if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:") || url.search !== "" || url.hash !== "" ||
    url.username !== "" || url.password !== "") {
    return yield* new SiteConfigError({ message: `HEDGEROW_SITE_URL must be an http:// or https:// URL without query or credentials, not "${raw}"` })
  }
  return Option.some(`${url.origin}${url.pathname}`.replace(/\/+$/, ""))
})

export const SiteFromConfig = Layer.effect(SiteSettings, siteFromConfig)
