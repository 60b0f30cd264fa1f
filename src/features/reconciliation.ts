// Feature entry (its own bundle, ./index.ts): customer ↔ registry reconciliation.
export { activateFeature } from '../reconciliation/register';
