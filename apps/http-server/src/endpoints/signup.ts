import { SignupService, type UserSummary } from "@hedgerow/core"
import { Effect } from "effect"
import { answer } from "../answers/answer.ts"
import { bindGroup } from "./binding.ts"

export const signup = bindGroup("signup", {
  prevalidate: ({ request, params }) => SignupService.use((s) => s.prevalidate(request, params.invite_id)),
  // A user summary is plain JSON; a new user's first session rides on the answer's cookies.
  accept: ({ request, params, body }) =>
    SignupService.use((s) => s.accept(request, params.invite_id, body)).pipe(
      Effect.map(({ user, cookies }) => answer<UserSummary>(201, {}, JSON.stringify(user), cookies))
    )
})
