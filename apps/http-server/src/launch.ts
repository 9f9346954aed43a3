import { linkExpiryText, samlBrowserBindingRequired, signInLinkUrl, SsoSettings } from "@hedgerow/core"
import { Console, Effect, Layer, Option } from "effect"
import { DomainRepository } from "@hedgerow/core/ports"
import { insecureFastPasswordHashing, Store } from "@hedgerow/store"
import { logSettingsFromConfig } from "./log/settings.ts"
import { MetricsListener } from "./observe/metrics-listener.ts"
import { tracingFromConfig } from "./observe/tracing.ts"
import { baseUrl, bootstrapIfEmpty, layer as serverLayer, type ServerOptions } from "./server.ts"
import { metricsListenerFromConfig } from "./settings/metrics-listener.ts"
import { configuredSiteUrl, siteFromConfig } from "./settings/site.ts"

/**
 * The URL a browser on this machine reaches the server at: a server listening on every address
 * (0.0.0.0 or ::) is reached at the loopback one, since browsers will not open the unspecified address.
 */
const browsableUrl = (url: string): string => {
  const parsed = new URL(url)
  if (parsed.hostname !== "0.0.0.0" && parsed.hostname !== "[::]") return url
  parsed.hostname = parsed.hostname === "0.0.0.0" ? "127.0.0.1" : "[::1]"
  return parsed.origin
}

const banner = (options: ServerOptions) =>
  Effect.gen(function*() {
    const url = yield* baseUrl
    const lines = [`Hedgerow is serving the API on ${url} (${Store.description(options.store)}).`]
    if (options.webConsoleDir !== undefined) lines.push(`Web console: ${browsableUrl(url)}/`)
    const oauth = [...(yield* SsoSettings).oauth]
    if (oauth.length > 0) lines.push(`OAuth log-in with ${oauth.join(", ")}: ${url}/login/<provider>/`)
    // Said only where SAML log-ins can happen: a verified domain has an identity provider set up.
    if (!samlBrowserBindingRequired(yield* siteFromConfig) && (yield* DomainRepository.use((domains) => domains.anySaml))) {
      lines.push(
        "SAML log-in on a plain-http HEDGEROW_SITE_URL checks the browser of an answer only when it sends its cookie, " +
          "which browsers send on no identity provider's cross-site POST over http: use https beyond development."
      )
    }
    if (yield* insecureFastPasswordHashing) {
      lines.push(
        "HEDGEROW_INSECURE_FAST_PASSWORD_HASHING is on: new passwords are hashed with about a hundredth of the usual work. " +
          "For test suites only, never for people's passwords."
      )
    }
    const metrics = yield* Effect.serviceOption(MetricsListener)
    if (Option.isSome(metrics)) lines.push(`Metrics: ${metrics.value.url}/metrics   Readiness: ${url}/_ready`)
    // The owner's way into the console is a one-time link, made only where a console is served.
    const first = yield* bootstrapIfEmpty({ signInLink: options.webConsoleDir !== undefined })
    if (Option.isSome(first)) {
      const { organization_id, project_id, user, personal_api_key, sign_in_link } = first.value
      lines.push(
        `First start: created organization ${organization_id}, project ${project_id} and owner ${user.email}.`,
        `Personal API key with scope * (shown only this once, keep it): ${personal_api_key}`,
        "Try it:",
        `  curl -H "Authorization: Bearer ${personal_api_key}" ${url}/api/organizations/${organization_id}/projects/`
      )
      if (sign_in_link !== undefined) {
        // Where people reach the site when the operator said so, else where this server listens.
        const site = Option.getOrElse(yield* configuredSiteUrl, () => browsableUrl(url))
        lines.push(
          `Sign in to the web console as ${user.email} with this one-time link (shown only this once, keep it private; it works once, until ${linkExpiryText(sign_in_link.expires_at)}):`,
          `  ${signInLinkUrl(site, sign_in_link.token)}`,
          `A new link, should this one be lost or expire (with the server stopped on the embedded store): npx hedgerow admin users sign-in-link ${user.email}`
        )
      }
      lines.push(
        `To log in with a password instead, give ${user.email} one (read from stdin, or asked for), with the server stopped on the embedded store:`,
        `  npx hedgerow admin users set-password --email ${user.email}`,
        "or over the API, with the key above (the owner has no password yet, so none is asked for):",
        `  curl -X PATCH -H "Authorization: Bearer ${personal_api_key}" -H "Content-Type: application/json" \\`,
        `    -d '{"password": "…"}' ${url}/api/users/@me/`,
        `then log in: POST ${url}/api/login/ with {"email", "password"} (a session cookie).`
      )
    } else {
      lines.push("Call it with a personal API key; `npx hedgerow admin keys create --email E --scopes '*'` makes one.")
    }
    lines.push(`OpenAPI document: ${url}/api/schema/   Docs: ${url}/api/docs/`, "Ctrl-C stops the server cleanly.")
    yield* Console.log(lines.join("\n"))
  })

/**
 * Runs the server until interrupted (SIGINT/SIGTERM via NodeRuntime), then closes it and the store. It
 * logs requests on stdout as HEDGEROW_LOG_LEVEL and HEDGEROW_LOG_FORMAT say, unless `options` has a log;
 * serves metrics as HEDGEROW_METRICS_PORT and HEDGEROW_METRICS_HOST say, unless `options` says where;
 * and exports traces when the OpenTelemetry variables name an endpoint (observe/tracing.ts).
 */
export const launch = (options: ServerOptions) =>
  Effect.scoped(Effect.gen(function*() {
    const log = options.log ?? (yield* logSettingsFromConfig())
    const metrics = options.metrics ?? (yield* metricsListenerFromConfig)
    const tracing = yield* tracingFromConfig
    const context = yield* Layer.build(serverLayer({ ...options, log, ...(metrics === undefined ? {} : { metrics }) }).pipe(Layer.provide(tracing)))
    yield* banner(options).pipe(Effect.provideContext(context))
    return yield* Effect.never
  })).pipe(
    Effect.catchTags({
      ConsoleNotBuilt: (error) => refuse(error.message),
      DataDirInUse: (error) => refuse(error.message),
      DatabaseUnavailable: (error) => refuse(error.message),
      TimeoutConfigError: (error) => refuse(error.message),
      MetricsConfigError: (error) => refuse(error.message),
      MetricsListenError: (error) => refuse(error.message),
      TracingConfigError: (error) => refuse(error.message),
      SiteConfigError: (error) => refuse(error.message),
      WebhookConfigError: (error) => refuse(error.message),
      OAuthConfigError: (error) => refuse(error.message),
      ServeError: (error) => refuse(`cannot listen on ${options.host}:${options.port}: ${causeMessage(error.cause)}`)
    })
  )

const causeMessage = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause))

/** A start that cannot happen is one line on stderr and exit code 1, like the CLI's other failures. */
const refuse = (message: string) =>
  Console.error(`error: ${message}`).pipe(Effect.andThen(Effect.sync(() => {
    process.exitCode = 1
  })))
