import { invalidate } from "../api/resources.ts"
import { request } from "../api/client.ts"
import { urlOf, useApi } from "../api/use-api.ts"
import { Link } from "../router/navigation.tsx"
import { hrefOf } from "../router/routes.ts"
import { ConfirmDialog } from "../ui/confirm-dialog.tsx"
import { Resourceful } from "../ui/states.tsx"

const PATH = "/api/organizations/:organization_id/"

/** Who the rule concerns and what it asks of them, in words. */
const AFFECTED =
  "It concerns every member whose current organization this is: one without an authenticator app must set one up " +
  "before going on, and a log-in that did not pass the app's code must pass it. Log-ins by single sign-on count as " +
  "passed, and personal API keys are not affected."

/**
 * The organization's two-factor rule (`enforce_2fa`; null reads as off): for an administrator (`manages`)
 * a switch that asks first, saying who is affected and, when it is the caller, that they will be asked
 * at once; for anyone else, the rule in words.
 */
export const TwoFactorRule = ({ organizationId, manages, myAppIsSet, current }: {
  readonly organizationId: string
  readonly manages: boolean
  /** Whether the caller has an authenticator app. */
  readonly myAppIsSet: boolean
  /** Whether this is the caller's current organization, whose rule applies to them. */
  readonly current: boolean
}) => {
  const options = { params: { organization_id: organizationId } }
  const organization = useApi(PATH, options)
  return (
    <section aria-labelledby="two-factor-rule-heading" className="form-section">
      <h2 id="two-factor-rule-heading">Two-factor authentication</h2>
      <Resourceful resource={organization} onRetry={() => invalidate(urlOf(PATH, options))}>
        {(held) => {
          const on = held.enforce_2fa === true
          if (!manages) {
            return (
              <p>
                {on
                  ? `${held.name} requires two-factor authentication of its members.`
                  : `${held.name} does not require two-factor authentication.`}{" "}
                Your own: <Link href={hrefOf({ page: "twoFactor" })}>two-factor authentication settings</Link>.
              </p>
            )
          }
          return (
            <>
              <p>{AFFECTED}</p>
              <div>
                <ConfirmDialog
                  label="Require two-factor authentication"
                  switchedOn={on}
                  title={on ? `Stop requiring two-factor authentication in ${held.name}?` : `Require two-factor authentication in ${held.name}?`}
                  confirmLabel={on ? "Stop requiring it" : "Require it"}
                  action={() => request("PATCH", PATH, { ...options, payload: { enforce_2fa: !on } })}
                  onDone={() => invalidate()}
                >
                  {on
                    ? <p>Members without an app may then use the console with their password alone; those with one are still asked for its code at log-in.</p>
                    : (
                      <>
                        <p>{AFFECTED}</p>
                        {current && !myAppIsSet
                          ? (
                            <p>
                              You have no authenticator app yet: once this is on, you are asked to set one up before you go on.
                            </p>
                          )
                          : null}
                      </>
                    )}
                </ConfirmDialog>
              </div>
            </>
          )
        }}
      </Resourceful>
    </section>
  )
}
