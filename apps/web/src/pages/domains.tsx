import { type FormEvent, useRef, useState } from "react"
import { request } from "../api/client.ts"
import { invalidate } from "../api/resources.ts"
import { reread, urlOf, useApi } from "../api/use-api.ts"
import { DOMAINS_PATH, domainsPrefix } from "../domains/domain.ts"
import { DomainCard } from "../domains/domain-card.tsx"
import { mayAdministerAt, myLevel } from "../members/levels.ts"
import { hrefOf } from "../router/routes.ts"
import { organizationName, useMe } from "../shell/me.ts"
import { OrganizationTabs } from "../shell/organization-tabs.tsx"
import { TextField } from "../ui/field.tsx"
import { usePageTitle } from "../ui/page-title.ts"
import { Pagination, PastTheEnd } from "../ui/pagination.tsx"
import { Empty, Resourceful } from "../ui/states.tsx"
import { useWrite } from "../ui/writes.ts"

const PAGE_SIZE = 20

/** Adds a domain; the API's refusal is shown by the Domain field, or above the button when it names none. */
const AddDomain = ({ organizationId, refresh, onAdded }: {
  readonly organizationId: string
  readonly refresh: () => Promise<void>
  readonly onAdded: (name: string) => void
}) => {
  const [domain, setDomain] = useState("")
  const { busy, error, run } = useWrite()
  const submit = (event: FormEvent) => {
    event.preventDefault()
    run(async () => {
      const created = await request("POST", DOMAINS_PATH, { params: { organization_id: organizationId }, payload: { domain } })
      await refresh()
      setDomain("")
      onAdded(created.domain)
    })
  }
  return (
    <form className="inline-form" aria-label="Add a domain" onSubmit={submit}>
      <TextField
        label="Domain"
        name="domain"
        value={domain}
        onValue={setDomain}
        placeholder="example.com"
        hint="Lower case, without www or @."
        error={error?.attr === "domain" ? error.detail : undefined}
      />
      <button type="submit" className="primary" disabled={busy}>Add domain</button>
      {error === undefined || error.attr === "domain" ? null : <p role="alert" className="form-error">{error.detail}</p>}
    </form>
  )
}

/** An organization's e-mail domains: proving each by DNS, then JIT provisioning and SSO enforcement. */
export default function DomainsPage({ organizationId, pageNumber }: {
  readonly organizationId: string
  readonly pageNumber: number
}) {
  const me = useMe()
  const name = organizationName(me, organizationId)
  usePageTitle(`Domains · ${name}`)
  const [notice, setNotice] = useState<string | undefined>(undefined)
  const heading = useRef<HTMLHeadingElement>(null)
  const options = {
    params: { organization_id: organizationId },
    query: { limit: String(PAGE_SIZE), offset: String((pageNumber - 1) * PAGE_SIZE) }
  }
  const domains = useApi(DOMAINS_PATH, options)
  const preflight = useApi("/_preflight/", {})
  const social = preflight.status === "ready" ? preflight.data.available_social_auth_providers : undefined
  const manages = mayAdministerAt(myLevel(me, organizationId))
  const refresh = () => reread(domainsPrefix(organizationId), DOMAINS_PATH, options)
  return (
    <>
      <h1>{name}</h1>
      <OrganizationTabs organizationId={organizationId} current="domains" />
      <h2 ref={heading} tabIndex={-1}>Domains</h2>
      <p>
        Once a domain is verified, people with an address at it can join the organization on their own
        (just-in-time provisioning), and be made to log in with one provider (SSO enforcement).
      </p>
      {manages
        ? <AddDomain organizationId={organizationId} refresh={refresh} onAdded={(added) => setNotice(`${added} was added; publish its DNS record, then verify it.`)} />
        : <p className="hint">Only administrators and owners add, verify and set up domains.</p>}
      <p role="status" className="notice">{notice ?? ""}</p>
      <Resourceful resource={domains} onRetry={() => invalidate(urlOf(DOMAINS_PATH, options))}>
        {(page) =>
          page.count === 0
            ? <Empty title="This organization has no domains yet." />
            : page.results.length === 0
            ? (
              <PastTheEnd firstPage={hrefOf({ page: "domains", organizationId, pageNumber: 1 })} />
            )
            : (
              <>
                {page.results.map((domain) => (
                  <DomainCard
                    key={domain.id}
                    organizationId={organizationId}
                    domain={domain}
                    manages={manages}
                    social={social}
                    refresh={refresh}
                    onDeleted={(deleted) => {
                      // The card and its buttons go: the keyboard goes on from the list's heading.
                      setNotice(`${deleted} was deleted.`)
                      heading.current?.focus()
                    }}
                  />
                ))}
                <Pagination
                  label="Domains pages"
                  count={page.count}
                  pageSize={PAGE_SIZE}
                  pageNumber={pageNumber}
                  hrefFor={(number) => hrefOf({ page: "domains", organizationId, pageNumber: number })}
                />
              </>
            )}
      </Resourceful>
    </>
  )
}
