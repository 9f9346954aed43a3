/**
 * What a SAML Response says, read by the signature adapter from the elements its identity provider's
 * signature covers. Every field is text as the XML holds it (trimmed); the rules in checks.ts judge it.
 */

/** A `<SubjectConfirmation>` of the assertion's subject, with its `<SubjectConfirmationData>`. */
export interface SubjectConfirmation {
  readonly method: string
  readonly recipient: string | undefined
  readonly in_response_to: string | undefined
  readonly not_before: string | undefined
  readonly not_on_or_after: string | undefined
}

/** The one `<Assertion>` of a Response. */
export interface SamlAssertion {
  readonly id: string
  readonly issuer: string | undefined
  readonly name_id: string | undefined
  readonly name_id_format: string | undefined
  readonly confirmations: ReadonlyArray<SubjectConfirmation>
  /** `<Conditions>`: absent when the assertion has none. */
  readonly conditions: {
    readonly not_before: string | undefined
    readonly not_on_or_after: string | undefined
    /** One list per `<AudienceRestriction>`; each must name this service provider. */
    readonly audiences: ReadonlyArray<ReadonlyArray<string>>
  } | undefined
  /** Each attribute's values by the attribute's Name, in the order they came. */
  readonly attributes: ReadonlyMap<string, ReadonlyArray<string>>
}

/** The `<Response>` around it. */
export interface SamlResponse {
  readonly id: string
  readonly issuer: string | undefined
  readonly destination: string | undefined
  readonly in_response_to: string | undefined
  /** The top-level `<StatusCode>`'s Value. */
  readonly status: string | undefined
  readonly assertion: SamlAssertion
}
