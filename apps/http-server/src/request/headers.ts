/** A request's headers as Effect's request or Node's holds them (Node gives `set-cookie` as a list). */
export type RequestHeaders = { readonly [name: string]: string | ReadonlyArray<string> | undefined }

/** A header's value as text; undefined when it is absent or a list. */
export const headerText = (headers: RequestHeaders, name: string): string | undefined => {
  const value = headers[name]
  return typeof value === "string" ? value : undefined
}
