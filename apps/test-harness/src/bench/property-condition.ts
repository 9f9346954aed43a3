/** A flag condition on a property of the person evaluated. */
export const person = (key: string, operator: string, value: unknown) => ({ key, type: "person", operator, value })

/** A flag condition on a property of the person's group of the type at `groupTypeIndex`. */
export const groupProperty = (groupTypeIndex: number, key: string, operator: string, value: unknown) => ({
  key,
  type: "group",
  group_type_index: groupTypeIndex,
  operator,
  value
})
