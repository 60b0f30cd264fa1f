// Feature entry (its own bundle, src/features/index.ts): customer ↔ registry reconciliation.
export { activateFeature } from '../reconciliation/register';
