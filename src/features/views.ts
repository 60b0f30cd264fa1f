// Feature entry (its own bundle, ./index.ts): the sidebar trees and their commands.
export { activateFeature } from '../commands/viewCommands';
