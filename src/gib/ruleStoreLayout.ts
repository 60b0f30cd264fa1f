// Where GİB's rules live in global storage (src/gib/ruleStore.ts writes and reads them): names only, no
// imports, so the VS Code side can watch the folder without loading the Schematron reader and its parser.

export const GIB_RULES_FOLDER = 'gib-rules';
/** The one file holding the installed package, replaced whole by each install. */
export const GIB_PACKAGE_FILE = 'package.json';
/**
 * fontoxpath's parsed form of the engine's XPath expressions for the installed release, written by the
 * worker after a check (src/gib/parsedXPathFile.ts); replaced whole, removed by an install.
 */
export const GIB_PARSED_XPATH_FILE = 'parsed-xpath.json';
/** The files the package keeps of GİB's two archives. */
export const wantRuleFile = (name: string): boolean => /(^|\/)schematron\/[^/]+\.(xml|txt)$/i.test(name);
export const wantSchemaFile = (name: string): boolean => /(^|\/)xsdrt\/.+\.xsd$/i.test(name);
