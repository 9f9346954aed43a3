/**
 * Whether an `If-None-Match` header names `etag`: `*`, or one of its comma-separated tags compared
 * weakly, as RFC 9110 has it for this header (a `W/` prefix does not count); a tag sent back without its
 * quotes counts as quoted, so a client that strips them still gets its 304.
 */
export const etagMatches = (ifNoneMatch: string | undefined, etag: string): boolean => {
  if (ifNoneMatch === undefined) return false
  const wanted = opaque(etag)
  return ifNoneMatch.split(",").some((candidate) => {
    const tag = candidate.trim()
    return tag === "*" || (tag !== "" && opaque(tag) === wanted)
  })
}

/** A tag without its weakness and its quotes. */
const opaque = (tag: string): string => {
  const strong = tag.startsWith("W/") ? tag.slice(2) : tag
  return strong.length >= 2 && strong.startsWith("\"") && strong.endsWith("\"") ? strong.slice(1, -1) : strong
}
