/**
 * Stored text never holds NUL: writes refuse it, and PostgreSQL's text cannot hold it (a statement given
 * one fails). So a value looked up that holds one matches nothing, and is answered so without asking
 * the store.
 */
export const holdsNul = (text: string): boolean => text.includes("\u0000")
