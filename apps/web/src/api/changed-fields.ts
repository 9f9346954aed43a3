/**
 * The fields of `after` whose values differ from `before`'s, compared as the JSON they are sent as: what an
 * edit sends, so that a field it did not touch keeps what the API holds, spelled as the API holds it.
 */
export const fieldsChanged = <F extends Record<string, unknown>>(before: F, after: F): Partial<F> =>
  Object.fromEntries(Object.entries(after).filter(([name, value]) => JSON.stringify(value) !== JSON.stringify(before[name]))) as Partial<F>
