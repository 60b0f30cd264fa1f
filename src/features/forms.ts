// Feature entry (its own bundle, src/features/index.ts): the webview forms' host side.
export { activateFeature, deserializeForm } from '../webviews/register';
