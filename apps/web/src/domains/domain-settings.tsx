import { type FormEvent, useState } from "react"
import type { ApiError } from "../api/client.ts"
import { SelectField, Switch, TextAreaField, TextField } from "../ui/field.tsx"
import type { SocialProviders } from "../login/sso.ts"
import { type Domain, type DomainChanges, SSO_WORDS, ssoWords, usable } from "./domain.ts"

const SAML_FIELDS = ["saml_entity_id", "saml_acs_url", "saml_x509_cert"] as const

/** What the form edits, as its controls hold it (an unset SAML value is empty text). */
interface Draft {
  readonly jit_provisioning_enabled: boolean
  readonly sso_enforcement: string
  readonly saml_entity_id: string
  readonly saml_acs_url: string
  readonly saml_x509_cert: string
}

const draftOf = (domain: Domain): Draft => ({
  jit_provisioning_enabled: domain.jit_provisioning_enabled,
  sso_enforcement: domain.sso_enforcement,
  saml_entity_id: domain.saml_entity_id ?? "",
  saml_acs_url: domain.saml_acs_url ?? "",
  saml_x509_cert: domain.saml_x509_cert ?? ""
})

/**
 * What differs from what the API holds: a save sends only that. JIT provisioning and SSO enforcement are
 * offered (so sent) only for a verified domain, as the API allows them then only.
 */
const changesOf = (draft: Draft, domain: Domain): DomainChanges => {
  const held = draftOf(domain)
  const changes: { -readonly [K in keyof DomainChanges]: DomainChanges[K] } = {}
  if (domain.is_verified && draft.jit_provisioning_enabled !== held.jit_provisioning_enabled) {
    changes.jit_provisioning_enabled = draft.jit_provisioning_enabled
  }
  if (domain.is_verified && draft.sso_enforcement !== held.sso_enforcement) changes.sso_enforcement = draft.sso_enforcement
  for (const field of SAML_FIELDS) if (draft[field] !== held[field]) changes[field] = draft[field]
  return changes
}

/**
 * The providers worth enforcing: those that can be used (the server enforces no other), and the one the
 * API holds, kept as given (marked when it cannot be used, so that the choice is seen for what it is).
 */
const ssoOptions = (current: string, domain: Domain, social: SocialProviders | undefined): ReadonlyArray<readonly [string, string]> => {
  const options: Array<readonly [string, string]> = Object.entries(SSO_WORDS).filter(([provider]) => usable(provider, domain, social))
  if (!options.some(([provider]) => provider === current)) {
    options.push([current, `${ssoWords(current)} (not set up)`])
  }
  return options
}

const FIELDS: ReadonlyArray<string> = ["jit_provisioning_enabled", "sso_enforcement", ...SAML_FIELDS]

/** The API's refusal, by the field its `attr` names; any other is the form's. */
const errorAt = (error: ApiError | undefined, field: keyof Draft | "form"): string | undefined => {
  if (error === undefined) return undefined
  const named = error.attr !== null && FIELDS.includes(error.attr) ? error.attr : "form"
  return named === field ? error.detail : undefined
}

/** A domain's settings: JIT provisioning and SSO enforcement once it is verified, and its SAML identity provider. */
export const DomainSettings = ({ domain, social, busy, error, onSave }: {
  readonly domain: Domain
  /** The OAuth providers this deployment has, once read. */
  readonly social: SocialProviders | undefined
  readonly busy: boolean
  readonly error: ApiError | undefined
  readonly onSave: (changes: DomainChanges) => void
}) => {
  const [draft, setDraft] = useState(() => draftOf(domain))
  const change = (fields: Partial<Draft>) => setDraft((old) => ({ ...old, ...fields }))
  const formError = errorAt(error, "form")
  const submit = (event: FormEvent) => {
    event.preventDefault()
    onSave(changesOf(draft, domain))
  }
  return (
    <form className="domain-settings" aria-label={`Settings of ${domain.domain}`} onSubmit={submit}>
      {domain.is_verified
        ? (
          <>
            <Switch
              label="Just-in-time provisioning"
              checked={draft.jit_provisioning_enabled}
              onChange={(jit_provisioning_enabled) => change({ jit_provisioning_enabled })}
              error={errorAt(error, "jit_provisioning_enabled")}
            />
            <SelectField
              label="Enforce SSO"
              hint={`Everyone with an address at ${domain.domain} must log in with this provider. Offered: the providers this server is set up for, and SAML once its three settings below are saved.`}
              options={ssoOptions(draft.sso_enforcement, domain, social)}
              value={draft.sso_enforcement}
              onValue={(sso_enforcement) => change({ sso_enforcement })}
              error={errorAt(error, "sso_enforcement")}
            />
          </>
        )
        : <p className="hint">Just-in-time provisioning and SSO enforcement can be set once the domain is verified.</p>}
      <TextField
        label="SAML entity ID"
        value={draft.saml_entity_id}
        onValue={(saml_entity_id) => change({ saml_entity_id })}
        error={errorAt(error, "saml_entity_id")}
      />
      <TextField
        label="SAML sign-in URL (ACS)"
        value={draft.saml_acs_url}
        onValue={(saml_acs_url) => change({ saml_acs_url })}
        error={errorAt(error, "saml_acs_url")}
      />
      <TextAreaField
        label="SAML X.509 certificate"
        rows={3}
        value={draft.saml_x509_cert}
        onValue={(saml_x509_cert) => change({ saml_x509_cert })}
        error={errorAt(error, "saml_x509_cert")}
      />
      {formError === undefined ? null : <p role="alert" className="form-error">{formError}</p>}
      <div>
        <button type="submit" className="primary" disabled={busy}>Save settings</button>
      </div>
    </form>
  )
}
