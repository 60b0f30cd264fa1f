// Feature entry (its own bundle, ./index.ts): the document preview and the template studio.
export { registerPreview as activateFeature } from '../preview/register';
