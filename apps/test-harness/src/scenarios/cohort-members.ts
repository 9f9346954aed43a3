import assert from "node:assert/strict"
import {
  type At,
  COHORTS,
  cohortCall,
  cohortName,
  createCohort,
  createStatic,
  csvForm,
  csvRefusal,
  membersOf,
  person,
  properties,
  refusal
} from "./cohorts-support.ts"
import { linkOf, projectOf } from "./feature-flags-support.ts"
import { expectReply, type Scenario, type ScenarioContext } from "./scenario.ts"
import type { Target } from "../targets/target.ts"

const at = (context: ScenarioContext): At => ({ key: context.primary.key, project: projectOf(context) })

const SUCCESS = { success: true }
const EMPTY = csvRefusal("CSV file is empty. Please upload a CSV file with at least one row of data.")
const NO_IDS = csvRefusal(
  "CSV file contains no valid person IDs, distinct IDs, or email addresses. Please ensure your file has data rows with person IDs, distinct IDs, or email addresses."
)
const ENCODING = csvRefusal("CSV file encoding is not supported. Please save your file as UTF-8 and try again.")
const FORMAT = csvRefusal("CSV file format is invalid. Please check your file format and try again.")
const missingColumn = (columns: string) =>
  csvRefusal(
    `Multi-column CSV must contain at least one column with a supported ID header: 'person_id', 'Person .id' (PostHog export format), 'distinct_id', 'distinct-id', or 'email'. Found columns: ${columns}`
  )
const noPersons = (what: string) =>
  csvRefusal(
    `This service keeps no persons, so a static cohort holds distinct IDs: a CSV of ${what} cannot be read. Upload a column headed distinct_id, or a single column of distinct IDs.`
  )

/** CSV files PostHog reads, with the members each gives. */
const READ: ReadonlyArray<readonly [string, string | Uint8Array, ReadonlyArray<string>]> = [
  ["one column, its first row data", "anna\n bob \n\n,carl\ndora,extra\n", ["anna", "bob", "dora"]],
  ["one column under a distinct_id heading", "Distinct_ID\nanna\r\nbob\r\n", ["anna", "bob"]],
  ["a distinct_id column among others", "name,distinct-id\nAnna,anna\nBob\nCarl,  \nDora,dora\n", ["anna", "dora"]],
  ["a distinct_id column beside a person_id one", "person_id,distinct_id\n1,anna\n", ["anna"]],
  ["quoted values, commas and quotes inside", "distinct_id,note\n\"a,b\",x\n\"say \"\"hi\"\"\",y\n", ["a,b", "say \"hi\""]],
  ["leading empty rows and a byte-order mark", "\ufeff\n\ndistinct_id,x\nanna,1\n", ["anna"]],
  ["Unicode distinct ids", "Ærø\nمرحبا\n🙂\n", ["Ærø", "مرحبا", "🙂"]],
  // Characters are code points, as `/flags` counts them when it cuts a distinct id.
  ["a distinct id of 200 characters, each two UTF-16 units", `${"🙂".repeat(200)}\n`, ["🙂".repeat(200)]]
]

/** CSV files refused, each with its answer on `csv`. */
const REFUSED: ReadonlyArray<readonly [string, string | Uint8Array, object]> = [
  ["an empty file", "", EMPTY],
  ["blank lines only", "\n\r\n\n", EMPTY],
  ["a person_id column alone", "person_id\n0188-aaaa\n", noPersons("person IDs")],
  ["an e-mail column alone", "Email\nanna@example.com\n", noPersons("email addresses")],
  ["a multi-column file of persons", "name,Person .id\nAnna,1\n", noPersons("person IDs")],
  ["a multi-column file without an id column", "name, age ,\nAnna,3\n", missingColumn("name,  age ")],
  ["a heading and no ids", "distinct_id,name\n,Anna\n", NO_IDS],
  ["bytes that are not UTF-8", new Uint8Array([0x61, 0xff, 0x0a]), ENCODING],
  ["a NUL character", "anna\u0000\n", FORMAT],
  ["a distinct id of 201 characters", `anna\n${"x".repeat(201)}\n`, csvRefusal("A distinct ID may have at most 200 characters; row 2 of the CSV has more.")]
]

const upload = (target: Target, where: At, csv: string | Uint8Array, fields: ReadonlyArray<readonly [string, string]>) =>
  target.call(COHORTS.create, {
    key: where.key,
    params: { project_id: where.project },
    form: { fields, files: { csv: { name: "members.csv", content: csv } } }
  })

export const cohortMemberScenarios: ReadonlyArray<Scenario> = [
  ...READ.map(([label, csv, members]): Scenario => ({
    name: `a static cohort created from a CSV of ${label} holds those distinct ids`,
    run: async (context) => {
      const where = at(context)
      const reply = await upload(context.target, where, csv, [["name", cohortName("csv")], ["is_static", "true"]])
      expectReply(reply, 201)
      assert.deepEqual([reply.body.is_static, reply.body.count], [true, members.length])
      assert.deepEqual(await membersOf(context.target, where, reply.body.id), [...members].sort())
    }
  })),
  ...REFUSED.map(([label, csv, error]): Scenario => ({
    name: `a static cohort's CSV of ${label} is refused with PostHog's 400 on csv, and no cohort is made`,
    run: async (context) => {
      const where = at(context)
      const name = cohortName("csv refused")
      expectReply(await upload(context.target, where, csv, [["name", name], ["is_static", "true"]]), 400, error)
      const listed = await context.target.call(COHORTS.list, { key: where.key, params: { project_id: where.project }, query: { search: name } })
      assert.deepEqual(listed.body.results, [])
    }
  })),
  {
    name: "a CSV adds to a static cohort on PATCH and PUT, is ignored by a dynamic one, and a refused one changes nothing",
    run: async (context) => {
      const { target } = context
      const where = at(context)
      const cohort = await createStatic(target, where, ["anna"])
      const patched = await target.call(COHORTS.update, cohortCall(where, cohort.id, { form: csvForm("bob\nanna\n", [["description", "listed"]]) }))
      expectReply(patched, 200)
      assert.deepEqual([patched.body.count, patched.body.description], [2, "listed"])
      expectReply(await target.call(COHORTS.replace, cohortCall(where, cohort.id, { form: csvForm("carl\n") })), 200)
      assert.deepEqual(await membersOf(target, where, cohort.id), ["anna", "bob", "carl"])
      const before = await target.call(COHORTS.retrieve, cohortCall(where, cohort.id))
      expectReply(await target.call(COHORTS.update, cohortCall(where, cohort.id, { form: csvForm("", [["name", "renamed"]]) })), 400, EMPTY)
      expectReply(await target.call(COHORTS.retrieve, cohortCall(where, cohort.id)), 200, before.body)

      const dynamic = await createCohort(target, where, { filters: properties([person("plan", "pro")]) })
      const ignored = await target.call(COHORTS.update, cohortCall(where, dynamic.id, { form: csvForm("anna\n", [["name", "still dynamic"]]) }))
      expectReply(ignored, 200)
      assert.deepEqual([ignored.body.name, ignored.body.count], ["still dynamic", null])
    }
  },
  {
    name: "add_persons_to_static_cohort adds distinct ids and remove_person_from_static_cohort takes one out, each logged; count follows",
    run: async (context) => {
      const { target } = context
      const where = at(context)
      const cohort = await createStatic(target, where, ["anna"])
      const added = await target.call(COHORTS.addPersons, cohortCall(where, cohort.id, { body: { person_ids: ["bob", "anna", 7, null, "", { id: 1 }] } }))
      expectReply(added, 200, SUCCESS)
      assert.deepEqual(await membersOf(target, where, cohort.id), ["7", "anna", "bob"])
      expectReply(await target.call(COHORTS.removePerson, cohortCall(where, cohort.id, { body: { person_id: "anna" } })), 200, SUCCESS)
      // Taking out an id that is not listed succeeds, as PostHog's removal does.
      expectReply(await target.call(COHORTS.removePerson, cohortCall(where, cohort.id, { body: { person_id: "nobody" } })), 200, SUCCESS)
      const after = await target.call(COHORTS.retrieve, cohortCall(where, cohort.id))
      assert.equal(after.body.count, 2)
      const activity = await target.call(COHORTS.activity, cohortCall(where, cohort.id))
      assert.deepEqual(
        activity.body.results.map((entry: any) => [entry.activity, entry.detail.changes]),
        [
          ["person_removed_manually", [{ type: "Cohort", action: "changed", field: null, before: null, after: null }]],
          ["person_removed_manually", [{ type: "Cohort", action: "changed", field: null, before: null, after: null }]],
          ["persons_added_manually", [{ type: "Cohort", action: "changed", field: null, before: null, after: null }]],
          ["created", null]
        ]
      )
    }
  },
  {
    name: "the member actions refuse a dynamic cohort before reading the body, then each faulty body with PostHog's 400",
    run: async (context) => {
      const { target } = context
      const where = at(context)
      const dynamic = await createCohort(target, where, { filters: properties([person("plan", "pro")]) })
      const listed = await createStatic(target, where, ["anna"])
      const raw = (endpoint: typeof COHORTS.addPersons | typeof COHORTS.removePerson, id: number, body: unknown) =>
        target.call(endpoint, cohortCall(where, id, { body }))
      expectReply(await raw(COHORTS.addPersons, dynamic.id, { person_ids: ["x"] }), 400, refusal("Can only add users to static cohorts"))
      expectReply(await raw(COHORTS.removePerson, dynamic.id, { person_id: "x" }), 400, refusal("Can only remove users from static cohorts"))
      const addCases: ReadonlyArray<readonly [unknown, string]> = [
        [{}, "person_ids must be a list"],
        [{ person_ids: "anna" }, "person_ids must be a list"],
        [{ person_ids: [] }, "person_ids cannot be empty"],
        [{ person_ids: Array.from({ length: 1001 }, (_, i) => `p${i}`) }, "List size exceeds limit"],
        [{ person_ids: [null, "", 1.5, true] }, "No valid users to add to cohort"],
        [{ person_ids: ["anna", "x".repeat(201)] }, "A distinct ID may have at most 200 characters; item 1 of person_ids has more."],
        [{ person_ids: ["a\u0000b"] }, "A distinct ID cannot hold a NUL character or a lone surrogate; item 0 of person_ids does."],
        [{ person_ids: ["anna", "\ud800"] }, "A distinct ID cannot hold a NUL character or a lone surrogate; item 1 of person_ids does."],
        [[{ person_ids: ["x"] }], "person_ids must be a list"]
      ]
      for (const [body, detail] of addCases) expectReply(await raw(COHORTS.addPersons, listed.id, body), 400, refusal(detail))
      const removeCases: ReadonlyArray<readonly [unknown, string]> = [
        [{}, "person_id is required"],
        [{ person_id: "" }, "person_id is required"],
        [{ person_id: 0 }, "person_id is required"],
        [{ person_id: 5 }, "person_id must be a string"],
        [{ person_id: ["anna"] }, "person_id must be a string"],
        [{ person_id: "a\u0000b" }, "A distinct ID cannot hold a NUL character or a lone surrogate; person_id does."]
      ]
      for (const [body, detail] of removeCases) expectReply(await raw(COHORTS.removePerson, listed.id, body), 400, refusal(detail))
      assert.deepEqual(await membersOf(target, where, listed.id), ["anna"])
      const activity = await target.call(COHORTS.activity, cohortCall(where, listed.id))
      assert.deepEqual(activity.body.results.map((entry: { activity: string }) => entry.activity), ["created"])
      // Removal takes any id text can store, however long, so no stored member is out of reach.
      expectReply(await raw(COHORTS.removePerson, listed.id, { person_id: "x".repeat(401) }), 200, { success: true })
      assert.deepEqual(await membersOf(target, where, listed.id), ["anna"])
    }
  },
  {
    name: "persons lists a static cohort's members as PostHog's persons, paged by limit and offset; a dynamic cohort has no list",
    run: async (context) => {
      const { target } = context
      const where = at(context)
      const cohort = await createStatic(target, where, ["c", "a", "b", "d", "e"])
      const first = await target.call(COHORTS.persons, cohortCall(where, cohort.id, { query: { limit: 2 } }))
      expectReply(first, 200, {
        results: ["a", "b"].map((id) => ({ type: "person", name: id, distinct_ids: [id], properties: {} })),
        next: first.body.next,
        previous: null
      })
      assert.deepEqual(linkOf(first.body.next), { path: `/api/projects/${where.project}/cohorts/${cohort.id}/persons/`, query: { limit: "2", offset: "2" } })
      const last = await target.call(COHORTS.persons, cohortCall(where, cohort.id, { query: { limit: 2, offset: 4 } }))
      assert.deepEqual(last.body.results.map((member: { name: string }) => member.name), ["e"])
      assert.equal(last.body.next, null)
      assert.deepEqual(linkOf(last.body.previous), { path: `/api/projects/${where.project}/cohorts/${cohort.id}/persons/`, query: { limit: "2", offset: "2" } })
      const dynamic = await createCohort(target, where, { filters: properties([person("plan", "pro")]) })
      expectReply(
        await target.call(COHORTS.persons, cohortCall(where, dynamic.id)),
        400,
        refusal("Only a static cohort's members can be listed: this service keeps no persons to match a dynamic cohort's filters against.")
      )
    }
  }
]
