/**
 * Where an SSO log-in may lead once it is done: a path of this site in printable ASCII, at most 2048
 * characters, never `//host` or `/\host`, which browsers read as another site. Anything else (another
 * site, a space, a control character, a character outside ASCII) could not stand in a Location header
 * as it is, or would lead away: it is dropped.
 */
const SAFE_NEXT = /^\/(?![/\\])[\x21-\x7e]{0,2047}$/

/** `next` when it is such a path of this site, else undefined. */
export const safeNextPath = (next: string | undefined): string | undefined =>
  next !== undefined && SAFE_NEXT.test(next) ? next : undefined
