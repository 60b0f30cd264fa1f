// ESLint flat config with typescript-eslint.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const VIEWS_AND_FEATURES = ['views', 'commands', 'editor', 'preview', 'reconciliation', 'webviews', 'features'];

/** A no-restricted-imports rule for src/<folder>/** of each folder: none of `banned` (folders or modules under src/). */
function layer(folders, why, banned, plainNode = false) {
  return folders.map((folder) => ({
    files: [`src/${folder}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: plainNode ? [{ name: 'vscode', message: `src/${folder} runs in plain Node.` }] : [],
          patterns: [{ group: banned.filter((b) => b !== folder).flatMap((b) => [`**/${b}`, `**/${b}/**`]), message: `src/${folder} ${why}.` }],
        },
      ],
    },
  }));
}

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', 'test-results/**', '*.vsix'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'smart'],
      curly: ['error', 'multi-line'],
      'no-throw-literal': 'error',
    },
  },
  // Layers point one way: plain Node (api, domain, files, registry, sandbox) < shell (with the active
  // profile model) < the profile commands < views < the features (commands, editor, preview,
  // reconciliation, webviews). Each block names what its folders must not import;
  // test/unit/project/importCycles.test.ts keeps files from importing in a circle.
  ...layer(['api', 'domain', 'files', 'gib', 'registry', 'sandbox'], 'run in plain Node and know nothing of the VS Code side', ['shell', 'profiles', 'walkthrough', ...VIEWS_AND_FEATURES], true),
  ...layer(['shell'], 'is what the features stand on', [...VIEWS_AND_FEATURES, 'profiles']),
  ...layer(['profiles'], 'stands on the shell only', VIEWS_AND_FEATURES),
  ...layer(['walkthrough'], 'stands on the shell and the editor\'s selectors only', [...VIEWS_AND_FEATURES.filter((f) => f !== 'editor'), 'editor/diagnostics', 'editor/hover']),
  ...layer(['views'], 'show rows: the commands on them are registered on the commands side', VIEWS_AND_FEATURES.filter((f) => f !== 'views')),
  ...layer(['editor', 'reconciliation', 'webviews'], 'reach the client and the registry through the shell and src/registry', ['commands', 'views', 'preview', 'features']),
  ...layer(['preview'], 'uses only the editor\'s rules and the webviews\' page helpers', ['commands', 'views', 'reconciliation', 'features', 'editor/hover']),
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: {
      globals: { require: 'readonly', module: 'writable', process: 'readonly', __dirname: 'readonly', console: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', Buffer: 'readonly', URL: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
