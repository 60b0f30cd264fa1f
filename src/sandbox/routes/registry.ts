// The global taxpayer registry: paging, lookups by tax number or name, and the ZIP download.
import { RESPONDED, route, type RouteSpec } from '../router';
import { ALIAS_TYPES, GLOBAL_USER_TYPES, type GlobalCustomerAliasesResponse, type GlobalUserType } from '../../api/types';
import type { RegistryAlias, RegistryEntry } from '../registry';
import { badRequest, notFound } from '../errors';
import { expectArray, optEnum, pageOf, parseEnum, parsePaging, type QueryParams } from '../validate';
import { streamRegistryZip } from '../registryDownload';
import { answerMissing, noMatchAnswer } from '../answers';

/** Name searches scan the registry; they stop after this many matches. */
export const SEARCH_LIMIT = 50;

function userType(query: QueryParams): GlobalUserType {
  return optEnum(query.get('globalUserType'), GLOBAL_USER_TYPES, 'globalUserType') ?? 'Invoice';
}

function publicAlias(a: RegistryAlias) {
  return { Name: a.Name, CreationTime: a.CreationTime, DeletionTime: a.DeletionTime };
}

function moduleType(e: RegistryEntry): string {
  return e.aliases.some((a) => a.document === 'Invoice' && !a.DeletionTime) ? 'eInvoice' : 'eArchive';
}

function details(e: RegistryEntry) {
  return {
    TaxNumber: e.TaxNumber, Title: e.Title, TaxDepartment: e.TaxDepartment, Address: e.Address, Country: e.Country, City: e.City,
    District: e.District, PostalCode: e.PostalCode, Phone: e.Phone, Fax: e.Fax, Email: e.Email, Type: e.Type, WebSite: e.WebSite,
    ModuleType: moduleType(e),
  };
}

function aliasesResponse(e: RegistryEntry, document: GlobalUserType) {
  return {
    TaxNumber: e.TaxNumber, Title: e.Title, Type: e.Type, ModuleType: moduleType(e), FirstCreationTime: e.FirstCreationTime,
    Aliases: e.aliases.filter((a) => a.document === document).map(publicAlias),
  };
}

/** GlobalCompanyInfoResponse rows: one per alias of the document type. */
function infoRows(e: RegistryEntry, document: GlobalUserType) {
  return e.aliases
    .filter((a) => a.document === document)
    .map((a) => ({ TaxNumber: e.TaxNumber, Title: e.Title, FirstCreatedTime: e.FirstCreationTime, CreationTime: a.CreationTime, DocumentType: a.document, Name: a.Name, Type: e.Type }));
}

function checkTaxNumberFormat(taxNumber: string): string {
  const t = taxNumber.trim();
  if (!/^\d{10,11}$/.test(t)) throw badRequest('The tax number is invalid.', 'A VKN has 10 digits, a TCKN 11.');
  return t;
}

export const registryRoutes: RouteSpec[] = [
  route('registry.list', ({ app, query }) => {
    const paging = parsePaging(query, app.behaviour.answerFor('pageSizeLimit'));
    const page = pageOf(app.registry.count(), (start, end) => app.registry.slice(start, end), paging, app.behaviour.answerFor('pageBeyondEnd'));
    return {
      ...page,
      Content: page.Content.map((e) => ({
        TaxNumber: e.TaxNumber, Title: e.Title, AccountType: e.AccountType, FirstCreationTime: e.FirstCreationTime, Type: e.Type,
        Aliases: e.aliases.map(publicAlias),
      })),
    };
  }),
  route('registry.search', ({ app, params, query }) =>
    noMatchAnswer(app.behaviour.answerFor('searchNoMatch'), app.registry.searchTitle(params.searchText, SEARCH_LIMIT, userType(query)).map(details)),
  ),
  route('registry.info', ({ app, params, query, res }) => {
    const document = userType(query);
    const e = app.registry.lookup(checkTaxNumberFormat(params.TaxNumber));
    // Spec-silent (behaviour point registryLookupMissing): 404 by default, while Check/TaxNumber answers [].
    if (!e) return answerMissing(res, app.behaviour.answerFor('registryLookupMissing'), notFound('The taxpayer is not registered.', `TaxNumber ${params.TaxNumber}`));
    return { ...details(e), FirstCreationTime: e.FirstCreationTime, Aliases: e.aliases.filter((a) => a.document === document).map(publicAlias) };
  }),
  // A lookup, not a change (its access in src/api/operations.ts): the read-only key may use it.
  route('registry.infoBulk', async ({ app, json, query }) => {
    const document = userType(query);
    const list = expectArray(await json(), 'The tax number list');
    if (!list.every((v) => typeof v === 'string')) throw badRequest('The request body is invalid.', 'Send a JSON array of tax-number strings.');
    // Spec-silent (behaviour point bulkLookupMissing): what stands for an unregistered number.
    const missing = app.behaviour.answerFor('bulkLookupMissing');
    return [...new Set((list as string[]).map((s) => s.trim()))].flatMap((tn): Array<GlobalCustomerAliasesResponse | null> => {
      const e = app.registry.lookup(tn);
      if (e) return [aliasesResponse(e, document)];
      if (missing === 'emptyAliases') return [{ TaxNumber: tn, Title: null, Type: null, ModuleType: null, FirstCreationTime: '0001-01-01T00:00:00', Aliases: [] }];
      return missing === 'nullEntry' ? [null] : [];
    });
  }),
  route('registry.checkTaxNumber', ({ app, params, query }) => {
    const document = userType(query);
    const e = app.registry.lookup(checkTaxNumberFormat(params.TaxNumber));
    return e ? infoRows(e, document) : [];
  }),
  route('registry.checkName', ({ app, params, query }) => {
    const document = userType(query);
    return app.registry.searchTitle(params.Name, SEARCH_LIMIT, document).flatMap((e) => infoRows(e, document));
  }),
  route('registry.downloadList', async ({ app, params, res, zipFault }) => {
    const aliasType = parseEnum(params.AliasType, ALIAS_TYPES, 'AliasType');
    const document = parseEnum(params.GlobalUserType, GLOBAL_USER_TYPES, 'GlobalUserType');
    await streamRegistryZip(app.registry, aliasType, document, res, zipFault, app.behaviour.answerFor('registryZipEncoding'), app.preparedLists);
    return RESPONDED;
  }),
];
