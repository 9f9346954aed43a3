import { type Actor, CURRENT, type Definitions, FlagEvaluationService, type LocalEvaluationDefinitions } from "@hedgerow/core"
import { Effect } from "effect"
import { type Answer, answer } from "../answers/answer.ts"
import { bindGroup } from "./binding.ts"
import { etagMatches } from "./conditional.ts"

/** Each poll asks whether the definitions changed; no shared cache may keep them, they are a key's. */
const CACHE_CONTROL = "private, must-revalidate"

/** 304 without a body when the caller holds the current definitions, else 200 with them; both name the ETag. */
const conditional = (definitions: Definitions, ifNoneMatch: string | undefined): Answer<LocalEvaluationDefinitions> => {
  const headers = { etag: definitions.etag, "cache-control": CACHE_CONTROL }
  return etagMatches(ifNoneMatch, definitions.etag) ? answer(304, headers, undefined) : answer(200, headers, definitions.json)
}

export interface DefinitionsCall {
  readonly query: { readonly token?: string | undefined; readonly send_cohorts?: string | undefined }
  readonly headers: { readonly "if-none-match"?: string | undefined }
}

/** The answer to a definitions poll by an authenticated caller; HttpApi and the SDK lane (sdk-lane/) both answer with it. */
export const definitionsAnswer = (actor: Actor, project: string, call: DefinitionsCall) =>
  FlagEvaluationService.use((s) =>
    s.definitions(actor, { project, token: call.query.token, sendCohorts: call.query.send_cohorts !== undefined })
  ).pipe(Effect.map((found) => conditional(found, call.headers["if-none-match"])))

export const flagDefinitions = bindGroup("flagDefinitions", {
  localEvaluation: (call) => definitionsAnswer(call.actor, CURRENT, call),
  definitions: (call) => definitionsAnswer(call.actor, CURRENT, call),
  projectLocalEvaluation: (call) => definitionsAnswer(call.actor, call.params.project_id, call)
})
