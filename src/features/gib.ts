// Feature entry (its own bundle, ./index.ts): GİB's validation rules on the user's computer, and a
// folder checked against them.
export { activateFeature } from '../commands/gib/register';
