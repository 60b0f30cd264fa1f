// Public API of the UI suite's harness; scenarios import from here.
export { answerFileDialog, chooseMenuItem, dialogButton, goToLine, notificationGone, openFile, openWorkbench, manifest, nls, problems, runAsking, setViewExpanded, steps, viewHeader, waitUntil, workspaceFolder } from './harness';
export type { Manifest, OpenWorkbenchOptions, Workbench } from './harness';
export type { SandboxCompany, SandboxProcess, SandboxProcessOptions } from './sandboxProcess';
export { repoRoot, resultsDir } from './repo';
export { designShows, focusFirstGroup, frameText, openInFirstGroup, openStudio, previewPage, runPicking } from './previewPages';
