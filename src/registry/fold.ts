// Turkish-aware folding and word splitting for title search: "İSTANBUL", "istanbul" and "İstanbul"
// are one word, and "IŞIK" folds to "ışık" (dotless), never to "işik".

/** Lower-cases with Turkish rules (İ → i, I → ı); other scripts fold as usual. */
export function foldTurkish(text: string): string {
  return text.toLocaleLowerCase('tr');
}

const WORD_SEPARATOR = /[^\p{L}\p{N}]+/u;

/** The folded words of a text: letters and digits; punctuation (". , & -") separates words. */
export function foldedWords(text: string): string[] {
  return foldTurkish(text)
    .split(WORD_SEPARATOR)
    .filter((w) => w.length > 0);
}
