import { Schema } from "effect"
import { Bool, BoundedList, Choice, Text } from "../shared/fields.ts"
import { EVENT_CHOICES } from "./events.ts"

/** Longer URLs than browsers keep are no receiver's. */
export const MAX_URL_LENGTH = 2000
export const MAX_DESCRIPTION_LENGTH = 400

const settings = {
  description: Schema.optionalKey(Text({ max: MAX_DESCRIPTION_LENGTH, allowBlank: true })),
  events: Schema.optionalKey(BoundedList(Choice(EVENT_CHOICES), EVENT_CHOICES.length)),
  enabled: Schema.optionalKey(Bool),
  /** A secret of the caller's own; the server makes one when none is given. */
  secret: Schema.optionalKey(Schema.String)
}

/** Body of POST `.../webhooks/`. */
export const WebhookCreate = Schema.Struct({ url: Text({ max: MAX_URL_LENGTH }), ...settings })
export type WebhookCreate = typeof WebhookCreate.Type

/** Body of PATCH `.../webhooks/{id}/`: what it names changes, the rest stays; a new secret replaces the old. */
export const WebhookUpdate = Schema.Struct({ url: Schema.optionalKey(Text({ max: MAX_URL_LENGTH })), ...settings })
export type WebhookUpdate = typeof WebhookUpdate.Type
