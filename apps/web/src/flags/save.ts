import { fieldsChanged } from "../api/changed-fields.ts"
import { type Draft, filtersOf, tagsOf } from "./draft.ts"

/** What a new flag's save sends of the draft: every field the form edits. */
export const fieldsOf = (draft: Draft) => ({
  key: draft.key,
  name: draft.name,
  active: draft.active,
  tags: tagsOf(draft.tags),
  filters: filtersOf(draft)
})

/**
 * What a save of a flag sends: the fields the edits changed. The form spells release conditions its own
 * way (every condition's properties and variant, empty payloads), so sending them unchanged would rewrite
 * a flag made through the API in that spelling, which the API records as a change of its conditions; and
 * whatever of them the form does not show (a payload's exact text, say) is kept as it is.
 */
export const changedFieldsOf = (before: Draft, after: Draft) => fieldsChanged(fieldsOf(before), fieldsOf(after))
