// Feature entry (its own bundle, src/features/index.ts): the sidebar trees and their commands.
export { activateFeature } from '../commands/viewCommands';
