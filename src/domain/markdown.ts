/** Backslash-escapes every ASCII punctuation mark Markdown or HTML could act on: the text is data, never markup. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~&:@"'=]/g, '\\$&');
}
