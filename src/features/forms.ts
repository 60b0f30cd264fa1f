// Feature entry (its own bundle, ./index.ts): the webview forms' host side.
export { activateFeature } from '../webviews/register';
