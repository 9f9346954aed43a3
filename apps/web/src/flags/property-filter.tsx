import { useId } from "react"
import { inContext, SelectField, TextField } from "../ui/field.tsx"
import { type DraftProperty, LIST_OPERATORS, VALUELESS_OPERATORS } from "./draft.ts"
import { operatorOptions } from "./operators.ts"

/**
 * One property filter of a release condition: the property, the operator and the value. On screen the
 * condition's legend and the filter's say where it stands; each control's name says it too ("Condition 1
 * filter 2 Operator"), as a legend is no part of it. A new filter is on a person property; a stored one
 * keeps its type. The property's name is suggested from `namesList` (the form's list of names), its
 * value from `values`, those other flags compare that name with.
 */
export const PropertyFilterEditor = ({ property, condition, number, namesList, values = [], readOnly, onChange, onRemove }: {
  readonly property: DraftProperty
  /** The id of the datalist of property names, when the form has one. */
  readonly namesList?: string | undefined
  readonly values?: ReadonlyArray<string> | undefined
  /** Shown, not changed: no Remove. */
  readonly readOnly: boolean
  /** The condition's name, "Condition 1". */
  readonly condition: string
  /** The filter's place in its condition, from 1. */
  readonly number: number
  readonly onChange: (property: DraftProperty) => void
  readonly onRemove: () => void
}) => {
  const place = `${condition} filter ${number}`
  const valuesList = useId()
  return (
    <fieldset className="property-filter">
      <legend>Filter {number}{property.type === "person" ? "" : ` (${property.type} property)`}</legend>
      <TextField
        label={inContext(place, "Property")}
        value={property.key}
        list={property.type === "person" ? namesList : undefined}
        autoComplete="off"
        onValue={(key) => onChange({ ...property, key })}
      />
      <SelectField
        label={inContext(place, "Operator")}
        options={operatorOptions(property.operator)}
        value={property.operator}
        onValue={(operator) => onChange({ ...property, operator })}
      />
      {VALUELESS_OPERATORS.has(property.operator) ? null : (
        <TextField
          label={inContext(place, "Value")}
          value={property.value}
          list={values.length === 0 ? undefined : valuesList}
          autoComplete="off"
          onValue={(value) => onChange({ ...property, value })}
          hint={LIST_OPERATORS.has(property.operator) ? "Comma-separated" : undefined}
        />
      )}
      {values.length === 0 ? null : (
        <datalist id={valuesList}>
          {values.map((value) => <option key={value} value={value} />)}
        </datalist>
      )}
      {readOnly ? null : <button type="button" onClick={onRemove}>Remove<span className="visually-hidden"> {place.toLowerCase()}</span></button>}
    </fieldset>
  )
}
