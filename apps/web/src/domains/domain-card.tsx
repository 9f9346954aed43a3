import { useId } from "react"
import { request } from "../api/client.ts"
import { ConfirmDialog } from "../ui/confirm-dialog.tsx"
import { CopyButton } from "../ui/copy-button.tsx"
import type { SocialProviders } from "../login/sso.ts"
import { challengeRecordName, type Domain, type DomainChanges, DOMAIN_PATH, ssoSentences, ssoWords } from "./domain.ts"
import { DomainSettings } from "./domain-settings.tsx"
import { When } from "../ui/when.tsx"
import { useCardWrites } from "../ui/writes.ts"

const VERIFY_PATH = "/api/organizations/:organization_id/domains/:id/verify/"


/** The TXT record that proves the domain is the organization's, each part with a copy button. */
const ChallengeRecord = ({ domain }: { readonly domain: Domain }) => {
  const name = challengeRecordName(domain)
  return (
    <dl className="details">
      <dt>Record type</dt>
      <dd><code>TXT</code></dd>
      <dt>Name</dt>
      <dd>
        <code>{name}</code> <CopyButton text={name} what={`the record name for ${domain.domain}`} />
        <p className="hint">
          The server's default name. An operator may have configured another prefix than{" "}
          <code>_hedgerow-challenge</code>; ask them if verification keeps failing.
        </p>
      </dd>
      <dt>Value</dt>
      <dd>
        <code className="challenge">{domain.verification_challenge}</code>{" "}
        <CopyButton text={domain.verification_challenge} what={`the record value for ${domain.domain}`} />
      </dd>
    </dl>
  )
}

/** The SAML identity provider's settings, to read: for those who cannot change them. */
const SamlDetails = ({ domain }: { readonly domain: Domain }) => (
  <>
    <dt>SAML entity ID</dt>
    <dd>{domain.saml_entity_id ?? "Not set"}</dd>
    <dt>SAML sign-in URL (ACS)</dt>
    <dd>{domain.saml_acs_url ?? "Not set"}</dd>
    <dt>SAML certificate</dt>
    <dd>{domain.saml_x509_cert === null || domain.saml_x509_cert === "" ? "Not set" : "Set"}</dd>
  </>
)

/**
 * One domain: whether it is verified, what its settings mean for its people in words, and for an
 * administrator (`manages`) the DNS record to publish and a Verify button while it is not, its settings,
 * and its removal (asked first). After every write the page's list is read again (`refresh`).
 */
export const DomainCard = ({ organizationId, domain, manages, social, refresh, onDeleted }: {
  readonly organizationId: string
  readonly domain: Domain
  readonly manages: boolean
  /** The OAuth providers this deployment has, once read. */
  readonly social: SocialProviders | undefined
  readonly refresh: () => Promise<void>
  readonly onDeleted: (name: string) => void
}) => {
  const heading = useId()
  const params = { organization_id: organizationId, id: domain.id }
  const { busy, notice, cardError, settingsError, write, fail } = useCardWrites(refresh)

  // Verify answers an empty 200 either way: the domain read again says whether DNS held the challenge.
  const verify = () =>
    write(async () => {
      await request("POST", VERIFY_PATH, { params })
      const after = await request("GET", DOMAIN_PATH, { params })
      return after.is_verified
        ? `${domain.domain} is verified.`
        : `${domain.domain} is not verified yet: no TXT record at ${challengeRecordName(domain)} holds its challenge. ` +
          "A new record can take a while to reach every DNS server; try again later."
    }, "card")

  const save = (payload: DomainChanges) =>
    write(async () => {
      if (Object.keys(payload).length === 0) return "Nothing has changed."
      await request("PATCH", DOMAIN_PATH, { params, payload })
      return "Settings saved."
    }, "settings")


  return (
    <article className="card" aria-labelledby={heading}>
      <div className="page-head">
        <h3 id={heading}>{domain.domain}</h3>
        <span className={domain.is_verified ? "badge badge-active" : "badge"}>{domain.is_verified ? "Verified" : "Not verified"}</span>
      </div>
      <dl className="details">
        <dt>Verified at</dt>
        <dd><When at={domain.verified_at} never="Not yet" /></dd>
        <dt>Just-in-time provisioning</dt>
        <dd>{domain.jit_provisioning_enabled ? "On" : "Off"}</dd>
        <dt>SSO enforcement</dt>
        <dd>{ssoWords(domain.sso_enforcement)}</dd>
        <dt>SAML</dt>
        <dd>{domain.has_saml ? "Configured" : "Not configured"}</dd>
        {manages ? null : <SamlDetails domain={domain} />}
      </dl>
      <div className="sso-summary">{ssoSentences(domain, social).map((sentence) => <p key={sentence}>{sentence}</p>)}</div>
      <p role="status" className="notice">{notice}</p>
      {cardError === undefined ? null : <p role="alert" className="form-error">{cardError.detail}</p>}
      {!manages ? null : domain.is_verified ? null : (
        <section aria-label={`Verify ${domain.domain}`}>
          <p>Publish this DNS record, then verify:</p>
          <ChallengeRecord domain={domain} />
          <button type="button" className="primary" disabled={busy} onClick={verify}>Verify {domain.domain}</button>
        </section>
      )}
      {manages ? <DomainSettings domain={domain} social={social} busy={busy} error={settingsError} onSave={save} /> : null}
      {manages
        ? (
          <ConfirmDialog
            label={`Delete ${domain.domain}`}
            title={`Delete ${domain.domain}?`}
            confirmLabel="Delete domain"
            disabled={busy}
            action={() => request("DELETE", DOMAIN_PATH, { params })}
            onDone={() => refresh().then(() => onDeleted(domain.domain), fail)}
          >
            <p>Its verification, JIT provisioning, SSO enforcement and SAML settings go with it. To use it again, add it and verify it anew.</p>
          </ConfirmDialog>
        )
        : null}
    </article>
  )
}
