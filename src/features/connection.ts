// Feature entry (its own bundle, ./index.ts): "Check Connection" and its report.
export { activateFeature } from '../commands/connection/checkConnection';
