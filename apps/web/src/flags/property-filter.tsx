import { SelectField, TextField } from "../ui/field.tsx"
import { type DraftProperty, LIST_OPERATORS, VALUELESS_OPERATORS } from "./draft.ts"
import { operatorOptions } from "./operators.ts"

/**
 * One property filter of a release condition: the property, the operator and the value, in a group
 * named by its place. A new filter is on a person property; a stored one keeps its type.
 */
export const PropertyFilterEditor = ({ property, place, onChange, onRemove }: {
  readonly property: DraftProperty
  /** "Condition 1 filter 2": names the group and each control (a fieldset's legend is not part of their names). */
  readonly place: string
  readonly onChange: (property: DraftProperty) => void
  readonly onRemove: () => void
}) => (
  <fieldset className="property-filter">
    <legend>{place}{property.type === "person" ? "" : ` (${property.type})`}</legend>
    <TextField label={`${place} property`} value={property.key} onValue={(key) => onChange({ ...property, key })} />
    <SelectField
      label={`${place} operator`}
      options={operatorOptions(property.operator)}
      value={property.operator}
      onValue={(operator) => onChange({ ...property, operator })}
    />
    {VALUELESS_OPERATORS.has(property.operator) ? null : (
      <TextField
        label={`${place} value`}
        value={property.value}
        onValue={(value) => onChange({ ...property, value })}
        hint={LIST_OPERATORS.has(property.operator) ? "Comma-separated" : undefined}
      />
    )}
    {/* Named in full for a screen reader; "Remove" is enough beside the filter it ends. */}
    <button type="button" onClick={onRemove}>Remove<span className="visually-hidden"> {place.toLowerCase()}</span></button>
  </fieldset>
)
