import { type FormEvent, useState } from "react"
import { type ApiError, asApiError, request } from "../api/client.ts"
import { useApi } from "../api/use-api.ts"
import { useMe } from "../shell/me.ts"
import { refusalPlaces, SelectField, TextField } from "../ui/field.tsx"
import { usePageTitle } from "../ui/page-title.ts"
import { Loading } from "../ui/states.tsx"

const AUTHORIZE_PATH = "/api/cli-auth/authorize/"
/** How many of an organization's projects the picker offers. */
const LISTED_PROJECTS = 100

/** The fields of the form, by the names the API's `attr` gives them. */
const FIELDS = ["user_code", "project_id"] as const

/**
 * The page `hedgerow login --browser` sends a person to: the code the terminal shows (filled in from the
 * link, or typed by hand), a project of theirs, and the plain question of what approving means. Nothing
 * is sent before they answer it; the CLI then receives a key of theirs at its next poll.
 */
export default function CliAuthorizePage({ code }: { readonly code: string }) {
  usePageTitle("Authorize the Hedgerow CLI")
  const me = useMe()
  const [userCode, setUserCode] = useState(code)
  const [organizationId, setOrganizationId] = useState(me.organization?.id ?? me.organizations[0]?.id ?? "")
  const [chosenProject, setChosenProject] = useState<string | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ApiError | undefined>(undefined)
  const [label, setLabel] = useState<string | undefined>(undefined)
  const projects = useApi(
    "/api/organizations/:organization_id/projects/",
    organizationId === "" ? null : { params: { organization_id: organizationId }, query: { limit: String(LISTED_PROJECTS) } }
  )

  if (label !== undefined) {
    return (
      <>
        <h1>The Hedgerow CLI is authorized</h1>
        <p role="status">Return to your terminal: the CLI logs you in as {me.email} within a few seconds, with a new personal API key labelled “{label}”.</p>
        <p>You can close this page.</p>
      </>
    )
  }

  const listed = projects.status === "ready" ? projects.data.results : []
  // The user's current project when it is in the chosen organization, else its first.
  const projectId = chosenProject ?? String(listed.find((project) => project.id === me.team?.id)?.id ?? listed[0]?.id ?? "")

  // Sent only now, once the person has answered the question by pressing Authorize.
  const approve = (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    setError(undefined)
    request("POST", AUTHORIZE_PATH, { payload: { user_code: userCode, project_id: Number(projectId) } }).then(
      (approved) => setLabel(approved.label),
      (cause: unknown) => {
        setBusy(false)
        setError(asApiError(cause))
      }
    )
  }

  const { errorFor, formError } = refusalPlaces(error, FIELDS)
  return (
    <>
      <h1>Authorize the Hedgerow CLI</h1>
      <p>Check that the code below is the one your terminal shows. If you did not just run <code>hedgerow login</code>, do not authorize it.</p>
      <form className="cli-authorize" onSubmit={approve} noValidate aria-busy={busy}>
        <TextField
          label="Code"
          name="user_code"
          autoComplete="off"
          spellCheck={false}
          value={userCode}
          onValue={setUserCode}
          hint="As the terminal shows it, e.g. ABCD-1234"
          error={errorFor("user_code")}
        />
        <SelectField
          label="Organization"
          value={organizationId}
          onValue={(id) => {
            setOrganizationId(id)
            setChosenProject(undefined)
          }}
          options={me.organizations.map((organization) => [organization.id, organization.name] as const)}
        />
        {projects.status === "loading" ? <Loading /> : (
          <SelectField
            label="Project"
            value={projectId}
            onValue={setChosenProject}
            hint="The project the CLI starts in; the key reaches everything you may reach"
            error={errorFor("project_id")}
            options={listed.map((project) => [String(project.id), project.name] as const)}
          />
        )}
        <p className="question">Authorize the Hedgerow CLI on your computer to act as {me.email}?</p>
        {formError === undefined ? null : <p role="alert" className="form-error">{formError}</p>}
        <button type="submit" className="primary" disabled={busy || projectId === ""}>Authorize</button>
      </form>
    </>
  )
}
