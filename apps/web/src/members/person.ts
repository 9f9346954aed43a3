/** A person's name as their user holds it (first and last), empty when they gave none. */
export const personName = (user: { readonly first_name: string; readonly last_name: string }) => `${user.first_name} ${user.last_name}`.trim()
