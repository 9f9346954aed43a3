import { InviteAccept, InvitePrevalidation, UserSummary } from "@hedgerow/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { ReadErrors, WriteErrors } from "../errors.ts"

const InviteParam = { invite_id: Schema.String }

/**
 * Accepting an invite by its id, the secret its e-mail carries: no Authorization. A logged-in caller
 * (the `sessionid` cookie) accepts as themself.
 */
export class SignupGroup extends HttpApiGroup.make("signup")
  .add(
    HttpApiEndpoint.get("prevalidate", "/api/signup/:invite_id/", {
      params: InviteParam,
      success: InvitePrevalidation,
      error: ReadErrors
    }).annotate(
      OpenApi.Description,
      "Whether the invite can be accepted (by the logged-in user, if any): its masked address, first name and organization, or PostHog's 400 (unknown, expired, already a member)"
    ),
    HttpApiEndpoint.post("accept", "/api/signup/:invite_id/", {
      params: InviteParam,
      payload: InviteAccept,
      success: UserSummary.pipe(HttpApiSchema.status(201)),
      error: WriteErrors
    }).annotate(
      OpenApi.Description,
      "Accept the invite: a new user (`first_name` and `password` required) is created and logged in (the session's cookies are set); a logged-in user joins as they are. The membership gets the invite's level, and the address's invites to the organization are gone"
    )
  )
  .annotateMerge(OpenApi.annotations({ title: "Sign-up" }))
{}
