import type { SetCookie } from "@hedgerow/core"

/** What the server sends: a status, headers, the body as JSON text already made or none, and cookies. */
export interface Reply {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  /** The body as JSON text (or its UTF-8 bytes), or undefined for an answer without one. */
  readonly json: string | Uint8Array | undefined
  /** Cookies the answer sets (a log-in's session), none when absent. */
  readonly cookies?: ReadonlyArray<SetCookie>
}

/**
 * An endpoint's answer with more to it than a value of its success type: a status of its own (304),
 * headers (an ETag), cookies, and the body as JSON text already made, or none. The server sends it as
 * it is; the harness's in-process target reads it the same way. `A` is the success type the text encodes.
 */
export interface Answer<A> extends Reply {
  readonly _tag: "Answer"
  /** Never set: it ties the text to the endpoint's success type. */
  readonly body?: A
}

/** An answer whose body is `json`, the encoding of a value of type `A` (or none). */
export const answer = <A>(
  status: number,
  headers: Readonly<Record<string, string>>,
  json: string | Uint8Array | undefined,
  cookies: ReadonlyArray<SetCookie> = []
): Answer<A> => ({
  _tag: "Answer",
  status,
  headers,
  json,
  cookies
})

export const isAnswer = (value: unknown): value is Answer<unknown> =>
  typeof value === "object" && value !== null && (value as { _tag?: unknown })._tag === "Answer"
