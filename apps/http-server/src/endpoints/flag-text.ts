import { type FlagView, joinedJson, keptJson, type PageEnvelope } from "@hedgerow/core"

/**
 * Flags made into JSON here rather than by HttpApi's encoding: a flag is rendered in its encoding's
 * order and of plain JSON values (test/flag-text.test.ts holds these bytes to the schema's encoding), and
 * encoding a page of a hundred through the schema cost more than everything else the request did. The
 * bytes are kept outside the JavaScript heap: a page of a hundred flags is some 130 KB, which as one
 * string per request went to V8's old generation and kept its collector busy.
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
