/**
 * A `multipart/form-data` body, as an adapter hands it to core: its text fields in order (a name may
 * repeat) and its files by field name. Core reads it as PostHog reads such a form: a field is its last
 * value (a list field, all of them), a JSON field is parsed from its text, and files are not part of the
 * data, only of the request.
 */

/** A file a form carried, whole in memory (the adapter bounds its size). */
export interface UploadedFile {
  readonly name: string
  readonly content: Uint8Array
}

export class FormBody {
  readonly fields: ReadonlyArray<readonly [name: string, value: string]>
  readonly files: ReadonlyMap<string, UploadedFile>
  constructor(fields: ReadonlyArray<readonly [name: string, value: string]>, files: ReadonlyMap<string, UploadedFile>) {
    this.fields = fields
    this.files = files
  }
}

/** A JSON field whose text is not JSON: refused when its turn comes, in PostHog's words. */
export class UnreadableJson {
  readonly _tag = "UnreadableJson"
}

export const INVALID_JSON = "Value must be valid JSON."

/**
 * The form's data as a JSON body would give it: `json` fields parsed (or marked unreadable), `lists`
 * fields as every value given, any other field as its last value.
 */
export const formData = (
  form: FormBody,
  kinds: { readonly json: ReadonlyArray<string>; readonly lists: ReadonlyArray<string> }
): Record<string, unknown> => {
  // A map, so that a field named `__proto__` is a field like any other.
  const data = new Map<string, unknown>()
  for (const [name, value] of form.fields) {
    if (kinds.lists.includes(name)) {
      data.set(name, [...((data.get(name) as Array<string> | undefined) ?? []), value])
    } else if (kinds.json.includes(name)) {
      try {
        data.set(name, JSON.parse(value))
      } catch {
        data.set(name, new UnreadableJson())
      }
    } else {
      data.set(name, value)
    }
  }
  return Object.fromEntries(data)
}
