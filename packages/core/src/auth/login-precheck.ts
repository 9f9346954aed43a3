import { Context, Effect, Layer, Option, Schema } from "effect"
import { DomainRepository } from "../domains/repository.ts"
import { type Body, type BodyError, decodeBody } from "../shared/body.ts"
import type { PermissionDenied, ValidationError } from "../shared/errors.ts"
import type { SessionRequest } from "../sessions/request.ts"
import { TrimmedEmail } from "../sessions/service.ts"
import { enforcedProviderOf, hasSaml, verifiedDomainOf } from "../sso/domain-of-email.ts"
import { SSO_PROVIDERS } from "../sso/providers.ts"
import { Authentication } from "./authenticate.ts"

/** The precheck's body: the e-mail a person is about to log in with. */
export const LoginPrecheckBody = Schema.Struct({ email: TrimmedEmail })
const decodePrecheck = decodeBody(LoginPrecheckBody)

/** What the log-in page needs to know before it asks for a password, as PostHog answers it. */
export const LoginPrecheck = Schema.Struct({
  /** The provider the e-mail's verified domain makes its people log in with, or null. */
  sso_enforcement: Schema.NullOr(Schema.Literals(SSO_PROVIDERS)),
  /** Whether the e-mail's verified domain has a SAML identity provider set up. */
  saml_available: Schema.Boolean
})
export type LoginPrecheck = typeof LoginPrecheck.Type

/**
 * `POST /api/login/precheck/`: open to anyone, as PostHog's is. It speaks only of the e-mail's domain,
 * never of whether anyone has an account with it, so a caller learns nothing about users.
 */
export class LoginPrecheckService extends Context.Service<LoginPrecheckService, {
  readonly precheck: (request: SessionRequest, body: Body) => Effect.Effect<LoginPrecheck, ValidationError | PermissionDenied | BodyError>
}>()("hedgerow/LoginPrecheckService") {
  static readonly layerNoDeps = Layer.effect(
    LoginPrecheckService,
    Effect.gen(function*() {
      const authentication = yield* Authentication
      const domains = yield* DomainRepository

      const precheck = Effect.fn("LoginPrecheckService.precheck")(function*(request: SessionRequest, body: Body) {
        // A logged-in caller's write needs its CSRF token here too, as on every endpoint a session reaches.
        yield* authentication.session(request)
        const { email } = yield* decodePrecheck(body)
        const domain = yield* verifiedDomainOf(email).pipe(Effect.provideService(DomainRepository, domains))
        if (Option.isNone(domain)) return { sso_enforcement: null, saml_available: false }
        return { sso_enforcement: yield* enforcedProviderOf(domain.value), saml_available: hasSaml(domain.value) }
      })

      return LoginPrecheckService.of({ precheck })
    })
  )
}
