import { Context } from "effect"
import type { InviteId } from "./ids.ts"

/** Where people reach this deployment (HEDGEROW_SITE_URL, PostHog's SITE_URL): links in e-mails, cookies' Secure flag. */
export interface Site {
  /** `scheme://host[:port]`, no trailing slash. */
  readonly url: string
}

/** The address `hedgerow serve` answers on by default; a deployment sets its own. */
export const DEFAULT_SITE_URL = "http://127.0.0.1:8000"

export const SiteSettings = Context.Reference<Site>("hedgerow/SiteSettings", {
  defaultValue: () => ({ url: DEFAULT_SITE_URL })
})

/** Cookies carry Secure when people reach the site over https. */
export const isSecureSite = (site: Site): boolean => site.url.startsWith("https://")

export const siteOrigin = (site: Site): string => new URL(site.url).origin

/** The page that accepts an invite, as PostHog's console serves it: `/signup/{invite_id}`. */
export const inviteAcceptUrl = (site: Site, invite: InviteId): string => `${site.url}/signup/${invite}`
