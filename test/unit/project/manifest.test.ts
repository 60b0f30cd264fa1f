// The manifest's activation rules: the extension wakes only through its own contributions and the
// files it helps with, never in every window (design: no "*", no onStartupFinished).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { evaluateWhen, type WhenContext } from '../../support/whenClause';
import { FormViewTypes, PreviewViewTypes } from '../../../src/constants';

interface MenuEntry {
  command: string;
  when?: string;
  group?: string;
}

interface Manifest {
  activationEvents?: string[];
  capabilities?: { virtualWorkspaces?: boolean | { supported: boolean | 'limited'; description?: string } };
  contributes?: {
    languages?: Array<{ id: string; extensions?: string[] }>;
    commands?: Array<{ command: string; title: string }>;
    menus?: Record<string, MenuEntry[]>;
    viewsWelcome?: Array<{ view: string; contents: string; when?: string }>;
    configuration?: { properties: Record<string, { scope?: string }> };
  };
}

const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8')) as Manifest;
const events = manifest.activationEvents ?? [];
const nls = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', '..', '..', 'package.nls.json'), 'utf8')) as Record<string, string>;
const commands = manifest.contributes?.commands ?? [];
const menus = manifest.contributes?.menus ?? {};
const title = (id: string) => {
  const raw = commands.find((c) => c.command === id)?.title ?? id;
  return raw.replace(/^%(.+)%$/, (_, key: string) => nls[key] ?? raw);
};

/** The commands the palette lists in a context (an entry without a commandPalette rule is always listed). */
function paletteIn(context: WhenContext): string[] {
  const rules = new Map((menus.commandPalette ?? []).map((m) => [m.command, m.when]));
  return commands.map((c) => c.command).filter((id) => evaluateWhen(rules.get(id), context));
}

/** Whether `menu` offers `command` in a context. */
function menuOffers(menu: string, command: string, context: WhenContext): boolean {
  return (menus[menu] ?? []).some((m) => m.command === command && evaluateWhen(m.when, context));
}

/** Commands that only work with an API key (everything that talks to the account or the live registry). */
const NEEDS_KEY = /^nilvera\.(forms|settings|customers|documents|certificates|identifications|account|reconciliation|credits)\.|^nilvera\.registry\.(?!searchOffline)/;
// Commands whose handlers read the registry tree's own documents (offered only in those, key or not).
const REGISTRY_DOCUMENT_ACTIONS = new Set(['nilvera.registry.addAsCustomer', 'nilvera.registry.copyTaxNumber', 'nilvera.registry.copyAlias']);

test('no activation event fires in every window', () => {
  assert.ok(!events.includes('*'), '"*" activates in every window');
  assert.ok(!events.includes('onStartupFinished'), 'onStartupFinished activates in every window');
  // VS Code 1.139 opens its chat input as a plaintext document (chatSessionInput:input-0), and json and
  // jsonc models of its own, in a fresh window at start-up (seen in code-server's extension-host log:
  // the built-in JSON extensions activate on these events before any file is opened), so these three
  // are "*" in disguise. test/e2e/scenarios/editor.activation.test.ts checks it in a real window.
  for (const language of ['plaintext', 'json', 'jsonc']) {
    assert.ok(!events.includes(`onLanguage:${language}`), `onLanguage:${language} fires at start-up in every window`);
  }
});

test('opening an invoice (XML) or a customer list (CSV/TSV) activates the extension', () => {
  for (const language of ['xml', 'csv', 'tsv']) assert.ok(events.includes(`onLanguage:${language}`), `onLanguage:${language} is missing`);
  // VS Code has no built-in CSV language: without these ids a .csv file opens as plain text and no
  // onLanguage:csv event ever fires.
  const languages = manifest.contributes?.languages ?? [];
  assert.ok(languages.some((l) => l.id === 'csv' && l.extensions?.includes('.csv')), '.csv files get no csv language');
  assert.ok(languages.some((l) => l.id === 'tsv' && l.extensions?.includes('.tsv')), '.tsv files get no tsv language');
});

test('every webview panel that comes back after a window reload activates the extension for its serializer', () => {
  // Without onWebviewPanel:<viewType>, a window that reloads with a form or preview open leaves its tab
  // blank until something else activates the extension.
  for (const viewType of [...Object.values(FormViewTypes), ...Object.values(PreviewViewTypes)]) assert.ok(events.includes(`onWebviewPanel:${viewType}`), `onWebviewPanel:${viewType} is missing`);
});

test('without a key the palette hides every command that needs one; with a key it offers them', () => {
  const withoutKey = paletteIn({ 'nilvera.hasApiKey': false });
  const leaked = withoutKey.filter((id) => NEEDS_KEY.test(id) && !REGISTRY_DOCUMENT_ACTIONS.has(id));
  assert.deepEqual(leaked, [], `listed without a key: ${leaked.join(', ')}`);
  assert.ok(withoutKey.includes('nilvera.apiKey.set') && withoutKey.includes('nilvera.environment.switch') && withoutKey.includes('nilvera.registry.searchOffline'));
  const withKey = paletteIn({ 'nilvera.hasApiKey': true });
  for (const id of ['nilvera.forms.settings', 'nilvera.settings.template', 'nilvera.registry.checkTaxNumber', 'nilvera.registry.bulkCheck', 'nilvera.customers.create']) {
    assert.ok(withKey.includes(id), `${id} missing with a key`);
  }
});

test('one palette entry per task: no two listed commands end in the same form, one customer finder', () => {
  const listed = paletteIn({ 'nilvera.hasApiKey': true, 'nilvera.sandboxRunning': true, 'nilvera.customers.hasSelection': true, 'nilvera.customers.filtered': true, 'nilvera.reconciliation.hasResult': true });
  // "Add Certificate" / "Add Certificate…", "New Customer (Form)" / "New Customer…": the same task.
  const task = (id: string) => title(id).replace(/…$/, '').replace(/\s*\(Form\)$/, '').toLowerCase();
  const seen = new Map<string, string>();
  for (const id of listed) {
    assert.ok(!seen.has(task(id)), `"${title(id)}" (${id}) and ${seen.get(task(id))} do the same thing`);
    seen.set(task(id), id);
  }
  for (const id of ['nilvera.forms.customer', 'nilvera.forms.certificate', 'nilvera.forms.company', 'nilvera.customers.findByTaxNumber']) {
    assert.ok(!listed.includes(id), `${id} duplicates another palette entry`);
  }
  // The company form is "Edit Company Details" everywhere (account view title menu included).
  assert.ok(!menuOffers('view/title', 'nilvera.forms.company', { view: 'nilvera.account', 'nilvera.hasApiKey': true }));
  assert.ok(menuOffers('view/title', 'nilvera.account.openCompany', { view: 'nilvera.account', 'nilvera.hasApiKey': true }));
  const finders = listed.filter((id) => /^nilvera\.customers\.(search|quickSearch|findByTaxNumber)$/.test(id));
  assert.deepEqual(finders, ['nilvera.customers.search', 'nilvera.customers.quickSearch'], 'filter the view, or go to one customer');
});

test('"Stop the Sandbox" only while one runs; "Delete Selected Customers" only with a selection', () => {
  assert.ok(!paletteIn({}).includes('nilvera.sandbox.stop'));
  assert.ok(paletteIn({ 'nilvera.sandboxRunning': true }).includes('nilvera.sandbox.stop'));
  assert.ok(!paletteIn({ 'nilvera.hasApiKey': true }).includes('nilvera.customers.deleteSelected'));
  assert.ok(paletteIn({ 'nilvera.hasApiKey': true, 'nilvera.customers.hasSelection': true }).includes('nilvera.customers.deleteSelected'));
});

test('"Bulk Check Tax Numbers" only where it can apply: XML/CSV/TSV or a tax-number file name; a selection with a number', () => {
  const file = (name: string, folder = false): WhenContext => ({
    'nilvera.hasApiKey': true,
    explorerResourceIsFolder: folder,
    resourceFilename: name,
    resourceExtname: path.extname(name),
  });
  for (const name of ['customers.csv', 'list.TSV', 'invoice.xml', 'vkn-listesi.txt', 'VergiNo.txt', 'customer_tax_numbers.txt']) {
    assert.ok(menuOffers('explorer/context', 'nilvera.registry.bulkCheck', file(name)), name);
  }
  for (const name of ['notes.txt', 'README.md', 'syntax.txt', 'package.json']) {
    assert.ok(!menuOffers('explorer/context', 'nilvera.registry.bulkCheck', file(name)), name);
  }
  assert.ok(!menuOffers('explorer/context', 'nilvera.registry.bulkCheck', file('data.csv', true)), 'a folder');
  assert.ok(!menuOffers('explorer/context', 'nilvera.registry.bulkCheck', { ...file('data.csv'), 'nilvera.hasApiKey': false }), 'without a key');
  assert.ok(!menuOffers('explorer/context', 'nilvera.registry.bulkCheck', { ...file('data.csv'), virtualWorkspace: 'vscode-vfs' }), 'virtual workspace');
  const editor = { editorHasSelection: true, 'nilvera.hasApiKey': true };
  assert.ok(!menuOffers('editor/context', 'nilvera.registry.bulkCheck', editor), 'any selection');
  assert.ok(menuOffers('editor/context', 'nilvera.registry.bulkCheck', { ...editor, 'nilvera.selectionHasTaxNumber': true }));
  assert.ok(!menuOffers('editor/context', 'nilvera.registry.bulkCheck', { 'nilvera.hasApiKey': true, 'nilvera.selectionHasTaxNumber': true }), 'no selection');
});

test('"Validate Documents against GİB Rules…" on a folder in the Explorer, key or not (GİB\'s rules need no account), never on a file', () => {
  const at = (name: string, folder: boolean): WhenContext => ({ explorerResourceIsFolder: folder, resourceFilename: name, resourceExtname: path.extname(name) });
  assert.ok(menuOffers('explorer/context', 'nilvera.gib.validateFolder', at('invoices', true)), 'a folder');
  assert.ok(!menuOffers('explorer/context', 'nilvera.gib.validateFolder', at('invoice.xml', false)), 'a file');
  assert.ok(!menuOffers('explorer/context', 'nilvera.gib.validateFolder', { ...at('invoices', true), virtualWorkspace: 'vscode-vfs' }), 'virtual workspace');
  assert.ok(paletteIn({}).includes('nilvera.gib.validateFolder'), 'in the palette without a key');
});

test('empty Customers, Documents and Certificates views offer their main action', () => {
  const welcome = manifest.contributes?.viewsWelcome ?? [];
  const shown = (view: string, context: WhenContext) =>
    welcome.filter((w) => w.view === view && evaluateWhen(w.when, context)).map((w) => w.contents.replace(/^%(.+)%$/, (_, key: string) => nls[key]));
  const cases: Array<[string, string[]]> = [
    ['nilvera.customers', ['nilvera.customers.create', 'nilvera.customers.import']],
    ['nilvera.documents', ['nilvera.documents.add']],
    ['nilvera.certificates', ['nilvera.certificates.add']],
  ];
  for (const [view, actions] of cases) {
    const empty = shown(view, { 'nilvera.hasApiKey': true, [`${view}.empty`]: true });
    assert.equal(empty.length, 1, `${view}: one welcome text when empty, got ${empty.length}`);
    for (const action of actions) assert.ok(empty[0].includes(`(command:${action})`), `${view} offers ${action}`);
    assert.ok(shown(view, { 'nilvera.hasApiKey': false, [`${view}.empty`]: true }).every((c) => c.includes('command:nilvera.apiKey.set')), `${view} without a key asks for one`);
  }
  const noMatch = shown('nilvera.customers', { 'nilvera.hasApiKey': true, 'nilvera.customers.empty': true, 'nilvera.customers.filtered': true });
  assert.equal(noMatch.length, 1);
  assert.ok(noMatch[0].includes('(command:nilvera.customers.clearSearch)'), 'a search without results offers to clear it');
});

test('environment settings declare their scope; virtual workspaces are declared limited, file commands hidden there', () => {
  const properties = manifest.contributes?.configuration?.properties ?? {};
  assert.equal(properties['nilvera.environment']?.scope, 'window');
  assert.equal(properties['nilvera.customUrl']?.scope, 'window');
  const virtual = manifest.capabilities?.virtualWorkspaces;
  assert.ok(typeof virtual === 'object' && virtual.supported === 'limited' && virtual.description, 'virtualWorkspaces must say limited, with a description');
  const inVirtual = paletteIn({ 'nilvera.hasApiKey': true, virtualWorkspace: 'vscode-vfs' });
  for (const id of ['nilvera.customers.import', 'nilvera.customers.export', 'nilvera.documents.add', 'nilvera.settings.template', 'nilvera.gib.validateFolder']) {
    assert.ok(!inVirtual.includes(id), `${id} reads or writes local files`);
  }
});

// The extension a user meets: identity, links, and a walkthrough whose steps complete on real events.
interface Identity {
  displayName?: string;
  description?: string;
  icon?: string;
  galleryBanner?: { color?: string; theme?: string };
  repository?: { url?: string };
  bugs?: { url?: string };
  homepage?: string;
  keywords?: string[];
  categories?: string[];
  contributes?: {
    views?: Record<string, Array<{ id: string; icon?: string }>>;
    walkthroughs?: Array<{ id: string; title: string; steps: Array<{ id: string; title: string; description: string; media: { markdown?: string; image?: string }; completionEvents?: string[] }> }>;
  };
}
const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');
const identity = manifest as Identity;
const readNls = (name: string) => JSON.parse(fs.readFileSync(path.join(repoRoot, name), 'utf8')) as Record<string, string>;
const nlsEn = readNls('package.nls.json');
const nlsTr = readNls('package.nls.tr.json');
const key = (value: string | undefined) => /^%(.+)%$/.exec(value ?? '')?.[1];

test('name and description are localized, with a Turkish translation of their own', () => {
  for (const field of ['displayName', 'description'] as const) {
    const k = key(identity[field]);
    assert.ok(k, `${field} is not a %key%`);
    assert.ok(nlsEn[k] && nlsTr[k] && nlsEn[k] !== nlsTr[k], `${field} has no Turkish text of its own`);
  }
});

test('icon and banner are set; repository links only all together, and then agree with each other', () => {
  assert.equal(identity.icon, 'media/icon.png');
  assert.ok(fs.existsSync(path.join(repoRoot, identity.icon)), 'the icon file is missing');
  assert.match(identity.galleryBanner?.color ?? '', /^#[0-9a-f]{6}$/i);
  assert.ok(identity.galleryBanner?.theme === 'dark' || identity.galleryBanner?.theme === 'light');
  // The project has no public home yet, so none is named (test/unit/project/vsix.test.ts: no address that does
  // not exist); once it has one, repository, bugs and homepage come back together.
  const links = [identity.repository, identity.bugs, identity.homepage];
  if (links.every((l) => l === undefined)) return;
  const repo = (identity.repository?.url ?? '').replace(/\.git$/, '');
  assert.match(repo, /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/);
  assert.equal(identity.bugs?.url, `${repo}/issues`);
  assert.ok(identity.homepage?.startsWith(repo), `homepage ${identity.homepage} is not under ${repo}`);
});

test('keywords include the Turkish terms people search for, and a category beyond Other', () => {
  for (const word of ['fatura', 'e-arşiv', 'GİB', 'UBL-TR', 'mükellef']) assert.ok(identity.keywords?.includes(word), `keyword ${word} is missing`);
  assert.ok((identity.keywords?.length ?? 0) <= 30, 'the Marketplace takes at most 30 keywords');
  assert.ok((identity.categories ?? []).some((c) => c !== 'Other'));
});

test('every view has an icon of its own, so they stay distinct when moved to the panel', () => {
  const views = Object.values(identity.contributes?.views ?? {}).flat();
  assert.ok(views.length >= 6);
  const icons = views.map((v) => v.icon);
  assert.ok(icons.every((i) => i), `views without an icon: ${views.filter((v) => !v.icon).map((v) => v.id).join(', ')}`);
  assert.equal(new Set(icons).size, icons.length, `views share an icon: ${icons.join(', ')}`);
});

test('the walkthrough: five steps, each with English and Turkish media, each completing on an event', () => {
  const walkthrough = identity.contributes?.walkthroughs?.[0];
  assert.ok(walkthrough, 'no walkthrough');
  assert.deepEqual(walkthrough.steps.map((s) => s.id), ['connect', 'customers', 'checkTaxNumber', 'downloadRegistry', 'invoice']);
  for (const step of walkthrough.steps) {
    for (const field of [step.title, step.description]) assert.ok(key(field) && nlsTr[key(field)!], `${step.id}: ${field} is not localized`);
    // Each description offers a button (a command link on a line of its own) for its step.
    assert.match(nlsEn[key(step.description)!], /\n\[[^\]]+\]\(command:[\w.]+\)/, `${step.id}: no button`);
    const media = key(step.media.markdown);
    assert.ok(media, `${step.id}: the media path is not localized`);
    const en = nlsEn[media];
    const tr = nlsTr[media];
    assert.notEqual(en, tr, `${step.id}: Turkish media is the English file`);
    for (const file of [en, tr]) assert.ok(fs.existsSync(path.join(repoRoot, file)), `${step.id}: ${file} is missing`);
    assert.ok(step.completionEvents && step.completionEvents.length > 0, `${step.id}: no completion event`);
    for (const e of step.completionEvents) assert.match(e, /^(onCommand|onView|onContext|onSettingChanged|onLink|onStepSelected|extensionInstalled):/);
  }
});

test("the walkthrough's context keys are the ones src/walkthrough/ declares and sets", () => {
  const walkthrough = (file: string) => fs.readFileSync(path.join(repoRoot, 'src', 'walkthrough', file), 'utf8');
  const declared = walkthrough('stepsDone.ts');
  const keys = (identity.contributes?.walkthroughs?.[0].steps ?? []).flatMap((s) => s.completionEvents ?? []).filter((e) => e.startsWith('onContext:nilvera.walkthrough.'));
  assert.equal(keys.length, 2);
  for (const e of keys) assert.ok(declared.includes(`'${e.slice('onContext:'.length)}'`), `${e} is not declared`);
  // Each key is set where its event is seen (diagnostics at activation, downloads in the features that
  // open the registry), through the step it completes (stepsDone.ts also tells VS Code the step is done).
  const stepsDone = walkthrough('stepsDone.ts');
  assert.match(stepsDone, /downloadRegistry: 'nilvera\.walkthrough\.registryDownloaded'/);
  assert.match(stepsDone, /invoice: 'nilvera\.walkthrough\.invoiceChecked'/);
  assert.match(stepsDone, /setContext', key, true/);
  assert.match(walkthrough('progress.ts'), /walkthroughStepDone\('invoice'\)/);
  assert.match(walkthrough('registryProgress.ts'), /walkthroughStepDone\('downloadRegistry'\)/);
  // The step ids VS Code is told (welcome.markStepComplete) are the manifest's.
  const wt = identity.contributes?.walkthroughs?.[0];
  assert.match(stepsDone, new RegExp(`WALKTHROUGH_ID = '${wt?.id}'`));
  const type = /export type WalkthroughStep = ([^;]+);/.exec(stepsDone)?.[1] ?? '';
  assert.deepEqual(type.split('|').map((t) => t.trim().replace(/'/g, '')), (wt?.steps ?? []).map((st) => st.id));
});
