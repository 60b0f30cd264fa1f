// Feature entry (its own bundle, src/features/index.ts): "Check Connection" and its report.
export { activateFeature } from '../commands/connection/register';
