// Feature entry (its own bundle, ./index.ts): the connection-profile commands.
export { activateFeature } from '../profiles/profileCommands';
