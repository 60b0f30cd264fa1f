// The folder of global storage holding GİB's rules (src/gib/ruleStore.ts), in a module of its own so
// the VS Code side can watch it without loading the store's Schematron reader.
export const GIB_RULES_FOLDER = 'gib-rules';
