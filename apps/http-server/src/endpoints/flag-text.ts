import { type FlagView, joinedJson, keptJson, type PageEnvelope } from "@hedgerow/core"

/**
 * Flags made into JSON here rather than by HttpApi's encoding: a flag is plain JSON values, rendered in
 * its encoding's order (test/flag-text.test.ts holds these bytes to the schema's encoding), and encoding
 * a page of flags through the schema would cost more than all the rest of the request. The bytes are
 * kept outside the JavaScript heap: a page's text is large enough that a string of it per request would
 * go to V8's old generation and keep its collector busy (docs/decisions.md, "The hot path").
 */

/** Each answer's bytes, kept with it: core gives the same answer again while nothing the caller sees of the flag has changed. */
export const flagJson = keptJson((flag: FlagView) => JSON.stringify(flag))

/** A page of flags: the bytes of the text JSON.stringify makes of the envelope, from each flag's kept bytes. */
export const flagPageJson = (page: PageEnvelope<FlagView>): Buffer =>
  joinedJson(
    `{"count":${page.count},"next":${JSON.stringify(page.next)},"previous":${JSON.stringify(page.previous)},"results":[`,
    page.results,
    flagJson,
    "]}"
  )
