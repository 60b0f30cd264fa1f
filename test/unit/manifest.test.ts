// The manifest's activation rules: the extension wakes only through its own contributions and the
// files it helps with, never in every window (design: no "*", no onStartupFinished).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

interface Manifest {
  activationEvents?: string[];
  contributes?: { languages?: Array<{ id: string; extensions?: string[] }> };
}

const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as Manifest;
const events = manifest.activationEvents ?? [];

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
const repoRoot = path.resolve(__dirname, '..', '..', '..');
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

test('icon, banner and the repository links are set, and agree with each other', () => {
  assert.equal(identity.icon, 'media/icon.png');
  assert.ok(fs.existsSync(path.join(repoRoot, identity.icon)), 'the icon file is missing');
  assert.match(identity.galleryBanner?.color ?? '', /^#[0-9a-f]{6}$/i);
  assert.ok(identity.galleryBanner?.theme === 'dark' || identity.galleryBanner?.theme === 'light');
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

test("the walkthrough's context keys are the ones src/walkthrough/progress.ts sets", () => {
  const source = fs.readFileSync(path.join(repoRoot, 'src', 'walkthrough', 'progress.ts'), 'utf8');
  const keys = (identity.contributes?.walkthroughs?.[0].steps ?? []).flatMap((s) => s.completionEvents ?? []).filter((e) => e.startsWith('onContext:nilvera.walkthrough.'));
  assert.equal(keys.length, 2);
  for (const e of keys) assert.ok(source.includes(`'${e.slice('onContext:'.length)}'`), `${e} is never set`);
});
