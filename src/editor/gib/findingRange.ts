// Where a GİB finding is shown: the engine gives the 1-based line and column of the element's start
// tag (its `<`); the diagnostic covers the element's name as written there (`cbc:ID`), so it
// underlines the element and not the document's first line. No vscode.

/** The offsets at which each line of `text` starts (a line ends at \n; \r\n is one line end). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

const NAME = /[\w.:-]+/y;

/**
 * The offsets of the element name of the start tag at `line`:`column` (1-based; at its `<` or within
 * its name). Where that position is in no start tag (libxml2 gives some XSD errors without a column),
 * the first start tag on the line from the column on; failing that, the line's text without its
 * indentation.
 */
export function findingRange(text: string, starts: readonly number[], line: number, column: number): { start: number; end: number } {
  const lineIndex = Math.min(Math.max(line, 1), starts.length) - 1;
  const lineStart = starts[lineIndex];
  const lineEnd = lineIndex + 1 < starts.length ? starts[lineIndex + 1] - 1 : text.length;
  const lineText = text.slice(lineStart, lineEnd).replace(/\r$/, '');
  const at = Math.min(Math.max(column, 1) - 1, lineText.length);
  const nameAt = (lt: number) => {
    NAME.lastIndex = lt + 1;
    const name = lt >= 0 ? NAME.exec(lineText) : null;
    return name ? { start: lineStart + lt + 1, end: lineStart + lt + 1 + name[0].length } : undefined;
  };
  // The start tag the column is in (engines differ on whether they count the `<` or the name) …
  const containing = nameAt(lineText.lastIndexOf('<', at));
  if (containing) return containing;
  // … or the next one on the line.
  for (let lt = lineText.indexOf('<', at); lt >= 0; lt = lineText.indexOf('<', lt + 1)) {
    const next = nameAt(lt);
    if (next) return next;
  }
  const indent = lineText.length - lineText.trimStart().length;
  return { start: lineStart + indent, end: lineStart + lineText.trimEnd().length };
}
