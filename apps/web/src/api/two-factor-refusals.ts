/**
 * The API's 403s for a session that its user's organization holds back until it passes a second factor,
 * by their codes, and what each asks of the person: an authenticator app set up, or a log-in with its code.
 */
const TWO_FACTOR_REFUSALS = {
  two_factor_setup_required: "setup",
  two_factor_verification_required: "verification"
} as const

export type TwoFactorRefusal = (typeof TWO_FACTOR_REFUSALS)[keyof typeof TWO_FACTOR_REFUSALS]

export const twoFactorRefusalOf = (code: string): TwoFactorRefusal | undefined =>
  Object.hasOwn(TWO_FACTOR_REFUSALS, code) ? TWO_FACTOR_REFUSALS[code as keyof typeof TWO_FACTOR_REFUSALS] : undefined

/** A refusal named in a URL's query, when it is one. */
export const asTwoFactorRefusal = (text: string | null): TwoFactorRefusal | undefined =>
  Object.values(TWO_FACTOR_REFUSALS).find((refusal) => refusal === text)
