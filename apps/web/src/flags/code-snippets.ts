/**
 * The code that reads a flag, for the SDKs Hedgerow serves, with the project's public token, this
 * server's address and the flag's key filled in. A boolean flag is read as on or off, a multivariate
 * one by its variant; the payload is read too when the flag has one. Each snippet uses the SDK's current
 * calls: posthog-js's `isFeatureEnabled`, `getFeatureFlag` and `getFeatureFlagResult`, posthog-node's
 * `evaluateFlags` over definitions it polls (local evaluation), and the embedding's `flags`.
 */

export interface SnippetFlag {
  readonly key: string
  /** The variants' keys, none for a boolean flag. */
  readonly variants: ReadonlyArray<string>
  readonly hasPayload: boolean
}

export interface Snippet {
  readonly id: "posthog-js" | "posthog-node" | "embedded"
  readonly title: string
  readonly about: string
  readonly code: string
}

const literal = (text: string): string => JSON.stringify(text)

const indent = (text: string): string => text.split("\n").map((line) => `  ${line}`).join("\n")

/** The branch a reader writes on the flag's value, in the given read's words. */
const branch = (flag: SnippetFlag, read: string, enabled: string): string =>
  flag.variants.length === 0
    ? `if (${enabled}) {\n  // the flag is on for this person\n}`
    : `const variant = ${read}\n${flag.variants.map((variant, index) => `${index === 0 ? "if" : "} else if"} (variant === ${literal(variant)}) {\n  // ${variant}`).join("\n")}\n}`

export const snippetsFor = (flag: SnippetFlag, token: string, host: string): ReadonlyArray<Snippet> => {
  const key = literal(flag.key)
  const browser = [
    `import posthog from "posthog-js"`,
    ``,
    `posthog.init(${literal(token)}, { api_host: ${literal(host)} })`,
    ``,
    `// Flags arrive after the first request; read them once they have.`,
    `posthog.onFeatureFlags(() => {`,
    indent(branch(flag, `posthog.getFeatureFlag(${key})`, `posthog.isFeatureEnabled(${key})`)),
    ...(flag.hasPayload ? [`  const payload = posthog.getFeatureFlagResult(${key})?.payload`] : []),
    `})`
  ]
  const server = [
    `import { PostHog } from "posthog-node"`,
    ``,
    `// Local evaluation: the definitions are fetched with a personal API key (feature_flag:read)`,
    `// and polled, so each read is evaluated in this process, with no request.`,
    `const posthog = new PostHog(${literal(token)}, {`,
    `  host: ${literal(host)},`,
    `  personalApiKey: process.env.HEDGEROW_PERSONAL_API_KEY, // phx_…, never in the browser`,
    `  featureFlagsPollingInterval: 30_000`,
    `})`,
    ``,
    `const flags = await posthog.evaluateFlags("user-42", { personProperties: { email: "ada@example.com" } })`,
    branch(flag, `flags.getFlag(${key})`, `flags.isEnabled(${key})`),
    ...(flag.hasPayload ? [`const payload = flags.getFlagPayload(${key})`] : []),
    ``,
    `await posthog.shutdown() // on exit: sends the calls it reported`
  ]
  const embedded = [
    `import { openHedgerow } from "@hedgerow/http-server"`,
    ``,
    `// Hedgerow in this process, over this server's database: its API under basePath, its flags`,
    `// read with no HTTP hop.`,
    `const hedgerow = await openHedgerow({`,
    `  store: { databaseUrl: process.env.DATABASE_URL },`,
    `  basePath: "/hedgerow",`,
    `  project: { apiToken: ${literal(token)} }`,
    `})`,
    ``,
    `const options = { personProperties: { email: "ada@example.com" } }`,
    branch(flag, `await hedgerow.flags.getVariant(${key}, "user-42", options)`, `await hedgerow.flags.isEnabled(${key}, "user-42", options)`),
    ...(flag.hasPayload ? [`const payload = await hedgerow.flags.getPayload(${key}, "user-42", options)`] : [])
  ]
  return [
    { id: "posthog-js", title: "In the browser (posthog-js)", about: "Evaluated by this server for each visitor, with the project's public token.", code: browser.join("\n") },
    { id: "posthog-node", title: "On a Node server (posthog-node, local evaluation)", about: "Evaluated in your server from definitions it polls from this server; give it a personal API key of yours.", code: server.join("\n") },
    { id: "embedded", title: "Embedded in a Node application (Hedgerow in-process)", about: "Hedgerow runs inside your application, on the same PostgreSQL database as this server, and reads the flag with no request at all.", code: embedded.join("\n") }
  ]
}
