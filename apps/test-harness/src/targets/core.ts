import { type ApiFailure, Authentication, bodyOf, CSRF_COOKIE, CSRF_HEADER, envelopeOf, FormBody, SESSION_COOKIE, rememberedValuesOf, type SessionRequest, TWO_FACTOR_COOKIE } from "@hedgerow/core"
import { bindingOf, isAnswer, setCookieHeaders, undecodedPart } from "@hedgerow/http-server"
import { Effect, type ManagedRuntime, Schema } from "effect"
import { type Call, endpointOf, type EndpointRef, type FormCall, type Reply, renderPath, type Target } from "./target.ts"

const isApiFailure = (error: unknown): error is ApiFailure =>
  typeof error === "object" && error !== null && "_tag" in error && "detail" in error

/** A path or query decoded by the endpoint's own schema, failing as the server's middleware fails it. */
const decodePart = (part: "Params" | "Query" | "Headers", schema: Schema.Top | undefined, text: Readonly<Record<string, string>>) =>
  schema === undefined
    ? Effect.succeed({})
    : Schema.decodeUnknownEffect(schema as Schema.Codec<unknown>)(text).pipe(
      Effect.mapError((error) => undecodedPart(part, error.issue))
    )

const formBodyOf = (form: FormCall) =>
  new FormBody(
    form.fields ?? [],
    new Map(Object.entries(form.files ?? {}).map(([name, file]) => [
      name,
      { name: file.name, content: typeof file.content === "string" ? new TextEncoder().encode(file.content) : file.content }
    ]))
  )

const asText = (values: Readonly<Record<string, string | number>> | undefined) =>
  Object.fromEntries(Object.entries(values ?? {}).map(([k, v]) => [k, String(v)]))

/** The origin the core target's URLs name, as a page served from it would send it. */
const CORE_ORIGIN = "http://core.hedgerow.invalid"

/** The call's cookies and headers as core's session rules read them; one client address for every call. */
const sessionRequestOf = (method: string, path: string, call: Call): SessionRequest => ({
  method,
  path,
  sessionKey: call.cookies?.[SESSION_COOKIE],
  csrfCookie: call.cookies?.[CSRF_COOKIE],
  csrfHeader: call.headers?.[CSRF_HEADER],
  twoFactorKey: call.cookies?.[TWO_FACTOR_COOKIE],
  rememberedDevices: rememberedValuesOf(call.cookies ?? {}),
  origin: call.headers?.["origin"],
  ownOrigin: CORE_ORIGIN,
  clientAddress: "core"
})

/**
 * Core in-process, as an embedding Node app would use it: no HTTP at all. The call goes through core's
 * Authentication, the contract's decoding of path and query, and the same endpoint bindings the server
 * runs; the answer is encoded with the contract's success schema, and failures become core's envelope.
 * Statuses therefore come from core's error model alone.
 */
export const coreTarget = (runtime: ManagedRuntime.ManagedRuntime<any, any>): Target => ({
  name: "core",
  call: (ref: EndpointRef, call: Call): Promise<Reply> => {
    const endpoint = endpointOf(ref)
    const isWrite = endpoint.method !== "GET" && endpoint.method !== "DELETE"
    // What a JSON body can carry, exactly: a round trip drops undefined and functions.
    const json = isWrite ? (call.body === undefined ? {} : JSON.parse(JSON.stringify(call.body))) : undefined
    // A form reaches core as the server's reader hands it over.
    const requestBody = call.form === undefined ? bodyOf(json) : bodyOf(formBodyOf(call.form))
    const url = `${CORE_ORIGIN}${renderPath(endpoint.path, call)}`
    const binding = bindingOf(ref.group, ref.endpoint)
    if (binding === undefined) return Promise.reject(new Error(`No binding for ${ref.group}.${ref.endpoint}`))
    const publicGroup = binding.access !== "authenticated"
    const request = () => sessionRequestOf(endpoint.method, renderPath(endpoint.path, call), call)
    const program = Effect.gen(function*() {
      // A caller is authenticated first, as the server's middleware does before decoding the request.
      const actor = publicGroup ? undefined : yield* Authentication.use((auth) => auth.caller(call.key, request))
      const params = yield* decodePart("Params", endpoint.params, asText(call.params))
      const query = yield* decodePart("Query", endpoint.query, asText(call.query))
      const headers = yield* decodePart("Headers", endpoint.headers, asText(call.headers))
      let value: unknown
      if (binding.access === "session") {
        // Whoever calls: the binding reads the request's session itself.
        value = yield* binding.run({ params, query, headers, body: bodyOf(json), request: request(), url })
      } else if (binding.access === "public") {
        // Answered without a caller: the body's token decides, as on the server.
        value = yield* binding.run({ params, query, headers, payload: Effect.succeed(json), url })
      } else if (actor !== undefined) {
        value = yield* binding.run({ actor, params, query, headers, body: requestBody, url })
      }
      // An answer is read as the server sends it: its status, its headers, its JSON text or no body.
      if (isAnswer(value)) {
        return {
          status: value.status,
          body: value.json === undefined ? null : JSON.parse(typeof value.json === "string" ? value.json : new TextDecoder().decode(value.json)),
          headers: value.headers,
          setCookies: setCookieHeaders(value.cookies ?? [])
        } as Reply
      }
      const body = yield* Schema.encodeUnknownEffect(endpoint.success as Schema.Top)(value).pipe(Effect.orDie)
      return { status: endpoint.status, body: JSON.parse(JSON.stringify(body ?? null)) } as Reply
    }).pipe(
      Effect.catch((error) =>
        isApiFailure(error) ? Effect.succeed(envelopeOf(error) as Reply) : Effect.die(error))
    )
    return runtime.runPromise(program)
  }
})
