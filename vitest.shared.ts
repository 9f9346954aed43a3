/**
 * Every suite's vitest settings in common. `@hedgerow/*` imports resolve to the packages' TypeScript
 * sources (the `@hedgerow/source` condition of their `exports`), so tests need no build and see every
 * edit at once; vitest hands the same conditions to its worker processes. The rest are vitest's own
 * defaults for Node, which a configured list replaces.
 */
export const workspaceSources = {
  ssr: { resolve: { conditions: ["@hedgerow/source", "node", "development|production"] } }
}
