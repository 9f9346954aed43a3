/**
 * Characters stored text cannot hold. PostgreSQL's text refuses NUL, so writes refuse it and stored text
 * never holds one: a search or an id holding NUL matches nothing. A UTF-16 surrogate standing alone
 * (JSON's `"\ud800"` escape) has no UTF-8 form: jsonb refuses it and text would silently store U+FFFD.
 */

export const holdsNul = (text: string): boolean => text.includes("\u0000")

const LONE_SURROGATE = /\p{Surrogate}/u

export const holdsLoneSurrogate = (text: string): boolean => LONE_SURROGATE.test(text)
