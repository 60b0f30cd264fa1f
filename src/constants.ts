// Identifiers shared by package.json contributions, the code and the tests.
export const EXTENSION_ID = 'nilvera-community.nilvera-general';

export const Commands = {
  apiKeySet: 'nilvera.apiKey.set',
  apiKeyClear: 'nilvera.apiKey.clear',
  environmentSwitch: 'nilvera.environment.switch',
  sandboxStart: 'nilvera.sandbox.start',
  sandboxStop: 'nilvera.sandbox.stop',
  creditsRefresh: 'nilvera.credits.refresh',
  logShow: 'nilvera.log.show',
} as const;

/** Connection profiles (src/profiles). */
export const ProfileCommands = {
  add: 'nilvera.profile.add',
  switch: 'nilvera.profile.switch',
  rename: 'nilvera.profile.rename',
  remove: 'nilvera.profile.remove',
  /** From a company of the Account view's company list (arg: the company node). */
  addCompany: 'nilvera.profile.addCompany',
} as const;

/** Palette commands: taxpayer registry, offline registry list, templates, series, mailing, tax office. */
export const PaletteCommands = {
  registryCheckTaxNumber: 'nilvera.registry.checkTaxNumber',
  registryCheckName: 'nilvera.registry.checkName',
  registrySearch: 'nilvera.registry.search',
  registryShowDetail: 'nilvera.registry.showDetail',
  registryBulkCheck: 'nilvera.registry.bulkCheck',
  registryBrowse: 'nilvera.registry.browse',
  registryDownload: 'nilvera.registry.download',
  registrySearchOffline: 'nilvera.registry.searchOffline',
  registryAddAsCustomer: 'nilvera.registry.addAsCustomer',
  registryCopyTaxNumber: 'nilvera.registry.copyTaxNumber',
  registryCopyAlias: 'nilvera.registry.copyAlias',
  settingsTemplate: 'nilvera.settings.template',
  settingsSeries: 'nilvera.settings.series',
  settingsMailing: 'nilvera.settings.mailing',
  settingsTaxOffice: 'nilvera.settings.taxOffice',
} as const;

/** "Check Connection" (src/commands/connection): read-only calls and a report. */
export const ConnectionCommands = {
  check: 'nilvera.connection.check',
  copyReport: 'nilvera.connection.copyReport',
} as const;

/** The webview forms (src/webviews). The internal ones are for the extension-host tests only. */
export const FormCommands = {
  company: 'nilvera.forms.company',
  customer: 'nilvera.forms.customer',
  certificate: 'nilvera.forms.certificate',
  settings: 'nilvera.forms.settings',
  inspect: 'nilvera.internal.forms.inspect',
  simulate: 'nilvera.internal.forms.simulate',
} as const;

/** Webview panel types of the forms (one serializer each restores its panels after a reload). */
export const FormViewTypes = {
  company: 'nilvera.form.company',
  customer: 'nilvera.form.customer',
  certificate: 'nilvera.form.certificate',
  settings: 'nilvera.form.settings',
} as const;

/** The sidebar trees' commands (src/views, src/commands/customers, src/commands/recordCommands.ts). */
export const TreeCommands = {
  retry: 'nilvera.views.retry',
  loadMore: 'nilvera.views.loadMore',
  /** Test seam: returns the trees object (same extension host, so the object itself). */
  testHook: 'nilvera.internal.trees',
  customersRefresh: 'nilvera.customers.refresh',
  customersSearch: 'nilvera.customers.search',
  customersClearSearch: 'nilvera.customers.clearSearch',
  customersSort: 'nilvera.customers.sort',
  customersOpen: 'nilvera.customers.open',
  customersEdit: 'nilvera.customers.edit',
  customersCheckRegistry: 'nilvera.customers.checkRegistry',
  customersCopyTaxNumber: 'nilvera.customers.copyTaxNumber',
  customersDelete: 'nilvera.customers.delete',
  customersDeleteSelected: 'nilvera.customers.deleteSelected',
  customersCreate: 'nilvera.customers.create',
  customersFindByTaxNumber: 'nilvera.customers.findByTaxNumber',
  customersQuickSearch: 'nilvera.customers.quickSearch',
  customersImport: 'nilvera.customers.import',
  customersExport: 'nilvera.customers.export',
  documentsRefresh: 'nilvera.documents.refresh',
  documentsAdd: 'nilvera.documents.add',
  documentsDelete: 'nilvera.documents.delete',
  certificatesRefresh: 'nilvera.certificates.refresh',
  certificatesDetails: 'nilvera.certificates.details',
  certificatesAdd: 'nilvera.certificates.add',
  certificatesUpdate: 'nilvera.certificates.update',
  certificatesDelete: 'nilvera.certificates.delete',
  identificationsRefresh: 'nilvera.identifications.refresh',
  identificationsAdd: 'nilvera.identifications.add',
  identificationsDelete: 'nilvera.identifications.delete',
  accountRefresh: 'nilvera.account.refresh',
  accountOpenCompany: 'nilvera.account.openCompany',
  accountToggleMailing: 'nilvera.account.toggleMailing',
  accountOpenCampaign: 'nilvera.account.openCampaign',
} as const;

/**
 * Palette commands that show one group of the Account view, `nilvera.account.show.<group key>`: each is
 * written in package.json only (command, title, palette rule) and registered from there.
 */
export const ACCOUNT_GROUP_COMMAND_PREFIX = 'nilvera.account.show.';

/** Customer ↔ registry reconciliation (src/reconciliation). The internal one is for the tests only. */
export const ReconciliationCommands = {
  run: 'nilvera.reconciliation.run',
  export: 'nilvera.reconciliation.export',
  openCustomer: 'nilvera.reconciliation.openCustomer',
  copyPkAlias: 'nilvera.reconciliation.copyPkAlias',
  loadMore: 'nilvera.reconciliation.loadMore',
  testHook: 'nilvera.internal.reconciliation',
} as const;

/** The reconciliation view (not in `Views`: its rows come from the reconciliation feature, not the views feature). */
export const ReconciliationView = 'nilvera.reconciliation';

/** Tax-number diagnostics (src/editor/diagnostics); the internal command is for the tests and the benchmark. */
export const DiagnosticsCommands = {
  testHook: 'nilvera.internal.diagnostics',
  /** A quick fix's: reopens a document in another encoding (args: uri, VS Code encoding id). */
  reopenWithEncoding: 'nilvera.editor.reopenWithEncoding',
} as const;

/** Document preview and template studio (src/preview). The internal one is for the tests and the benchmark. */
export const PreviewCommands = {
  document: 'nilvera.preview.document',
  design: 'nilvera.preview.design',
  uploadDesign: 'nilvera.preview.uploadDesign',
  testHook: 'nilvera.internal.preview',
} as const;

/** GİB's validation rules: getting them onto this computer and checking a folder against them. */
export const GibCommands = {
  downloadRules: 'nilvera.gib.downloadRules',
  useRulesFromFile: 'nilvera.gib.useRulesFromFile',
  checkForNewerRules: 'nilvera.gib.checkForNewerRules',
  validateFolder: 'nilvera.gib.validateFolder',
} as const;

/** The preview panels' view types; one serializer each brings a panel back after a window reload (src/features/index.ts). */
export const PreviewViewTypes = {
  document: 'nilvera.preview.document',
  studio: 'nilvera.preview.studio',
} as const;

export const Views = {
  customers: 'nilvera.customers',
  documents: 'nilvera.documents',
  certificates: 'nilvera.certificates',
  identifications: 'nilvera.identifications',
  account: 'nilvera.account',
} as const;

export const ContextKeys = {
  hasApiKey: 'nilvera.hasApiKey',
  environment: 'nilvera.environment',
  /** The active editor shows a UBL-TR document (src/preview/contextKey.ts). */
  ublDocument: 'nilvera.ublDocument',
} as const;

/** Setting names below the `nilvera` section. */
export const Settings = {
  section: 'nilvera',
  environment: 'environment',
  customUrl: 'customUrl',
  pageSize: 'pageSize',
  requestTimeoutSeconds: 'requestTimeoutSeconds',
  creditWarningThreshold: 'creditWarningThreshold',
  /** Tax-number hovers (src/editor/hover). */
  editorTaxNumberHovers: 'editor.taxNumberHovers',
  editorHoverOnlineLookup: 'editor.hoverOnlineLookup',
  /** Tax-number diagnostics (src/editor/diagnostics). */
  editorInvoiceDiagnostics: 'editor.invoiceDiagnostics',
  editorCsvDiagnostics: 'editor.csvDiagnostics',
  /** GİB's findings that only say an unsigned draft is not signed (src/editor/gib). */
  gibShowSignatureFindings: 'gibRules.showSignatureFindings',
  /** The separator of CSV exports: auto (by the display language), comma, semicolon, tab. */
  csvSeparator: 'csv.separator',
  /** Where GİB's two archives are downloaded from (src/commands/gib/ruleUrls.ts); user settings only. */
  gibRulesUrl: 'gibRules.rulesUrl',
  gibSchemasUrl: 'gibRules.schemasUrl',
} as const;

export const OutputChannelName = 'Nilvera';

/**
 * The environment variable that hands the sandbox child its key (src/shell/sandboxChild.ts, read by
 * src/sandbox/cli.ts): a command line is readable by every local user, a process's environment is not.
 */
export const SANDBOX_KEY_ENV = 'NILVERA_SANDBOX_SERVER_KEY';
