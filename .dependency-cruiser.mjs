/**
 * The import rules every package is held to, read by dependency-cruiser: `npm run imports` checks them
 * alone, and `npm test` first of all. A type-only import counts as an edge like any other, since a reader
 * following the imports meets it all the same.
 */

const HTTP_SERVER = "^apps/http-server/src/"

export default {
  forbidden: [
    {
      name: "no-circular",
      comment: "No module reaches itself through its imports, so that every folder reads from the bottom up.",
      severity: "error",
      from: {},
      to: { circular: true }
    },
    {
      name: "core-stands-alone",
      comment: "packages/core is pure Effect: it imports no other package of the workspace.",
      severity: "error",
      from: { path: "^packages/core/src/" },
      to: { path: "^(packages/(?!core/)|apps/)" }
    },
    {
      name: "packages-import-no-app",
      comment: "Imports point one way, apps -> api/store -> core: no package imports an app.",
      severity: "error",
      from: { path: "^packages/[^/]+/src/" },
      to: { path: "^apps/" }
    },
    {
      name: "api-and-store-apart",
      comment: "The contract and the store stand side by side over core; neither imports the other.",
      severity: "error",
      from: { path: "^packages/(api|store)/src/" },
      to: { path: "^packages/(api|store)/", pathNot: "^packages/$1/" }
    },
    {
      name: "sdk-lane-stays-apart",
      comment:
        "The SDK lane answers its two requests beside HttpApi: nothing it imports, however indirectly, " +
        "is HttpApi's handlers or the web console.",
      severity: "error",
      from: { path: `${HTTP_SERVER}sdk-lane/` },
      to: { path: `${HTTP_SERVER}(http-api|web-console)/`, reachable: true }
    }
  ],
  options: {
    // dependency-cruiser cannot use TypeScript 7's compiler; swc parses the sources, types included.
    parser: "swc",
    exclude: { path: "(^|/)(node_modules|dist)/" },
    enhancedResolveOptions: {
      // Workspace packages resolve to their sources, as the typecheck and the suites resolve them.
      exportsFields: ["exports"],
      conditionNames: ["@hedgerow/source", "import", "node", "default"],
      extensions: [".ts", ".tsx", ".mjs", ".js"]
    }
  }
}
