import { type Draft, filtersOf, tagsOf } from "./draft.ts"

/** What a save sends of the draft: every field the form edits (the API records only what changed). */
export const fieldsOf = (draft: Draft) => ({
  key: draft.key,
  name: draft.name,
  active: draft.active,
  tags: tagsOf(draft.tags),
  filters: filtersOf(draft)
})
