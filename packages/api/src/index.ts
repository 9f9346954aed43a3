/** Hedgerow's HTTP contract: endpoints, payload/response/error schemas and the security scheme. */
export * from "./api.ts"
export * from "./errors.ts"
export * from "./security.ts"
export * from "./groups/identity.ts"
export * from "./groups/organization-projects.ts"
export * from "./groups/organizations.ts"
export * from "./groups/projects.ts"
export * from "./groups/system.ts"
