import { CompiledPatterns } from "../src/evaluation/regex-patterns.ts"

/** The patterns compiled, as a project's are before its flags are evaluated. */
export const compiledPatterns = (patterns: Iterable<string>): CompiledPatterns => {
  const compiled = new CompiledPatterns(patterns)
  while (compiled.compileNext());
  return compiled
}

/** The prepared flags with their patterns compiled. */
export const withPatternsCompiled = <P extends { readonly patterns: CompiledPatterns }>(prepared: P): P => {
  while (prepared.patterns.compileNext());
  return prepared
}
