// The command line as a few bundled files (dist/bundle), which bin/hedgerow.mjs runs: Node resolving and
// reading the several hundred modules of effect and of Hedgerow's packages one by one would be most of a
// command's start (docs/decisions.md, "The hot path"). Commands still load lazily, each from a chunk of
// its own.
export default {
  input: "dist/main.js",
  platform: "node",
  external: [
    /^node:/,
    // Read at run time from their own directories: PGlite's WebAssembly and data files, the console's build.
    /^@electric-sql\/pglite(\/|$)/,
    /^@hedgerow\/web(\/|$)/,
    // pg's optional native binding, which it loads only when asked to.
    "pg-native"
  ],
  // The modules as they are, joined and nothing more: tree-shaking and minifying's dead-code removal drop
  // calls they deem pure, such as a decodeURIComponent made only for the error it may throw, which
  // changes what the program does. Unused code costs a little parsing at most.
  treeshake: false,
  output: {
    dir: "dist/bundle",
    format: "esm",
    minify: false,
    // The source text of every module loaded stays in the heap for the life of the process. Without
    // documentation comments, and with its few non-ASCII characters written as escapes (one such
    // character makes V8 keep the whole file at two bytes a character), a server holds far less of it.
    // What the code does is unchanged.
    comments: { legal: true, annotation: false, jsdoc: false },
    charset: "ascii",
    entryFileNames: "main.js",
    chunkFileNames: "[name]-[hash].js"
  },
  logLevel: "warn"
}
