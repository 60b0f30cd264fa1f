// Feature entry (its own bundle, ./index.ts): registry look-ups, the offline list and its
// index, templates, series, mailing and the tax office.
export { activateFeature } from '../commands/registry/register';
