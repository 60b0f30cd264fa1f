// Feature entry (its own bundle, src/features/index.ts): the connection-profile commands.
export { activateFeature } from '../profiles/register';
