import { useEffect, useRef } from "react"
import type { LoginFailure } from "../router/routes.ts"
import { failureWords } from "./sso.ts"

/**
 * Why the SSO log-in that brought the browser back here did not log the person in. It takes the focus
 * when the page opens, so that a screen reader reads it first; the e-mail field is the next stop.
 */
export const FailureAlert = ({ failure }: { readonly failure: LoginFailure }) => {
  const alert = useRef<HTMLDivElement>(null)
  useEffect(() => alert.current?.focus(), [])
  return (
    <div ref={alert} role="alert" tabIndex={-1} className="login-failure">
      {failureWords(failure)}
    </div>
  )
}
