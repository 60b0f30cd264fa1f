// The wording of the findings. The translator comes in as a parameter (vscode.l10n in the
// extension, an English formatter in unit tests), so this stays free of the vscode module.
import type { PartyRole, UblDocumentKind } from '../../domain/ubl/documentTypes';
import type { GibPlaceholder } from '../../domain/ubl/taxSchemes';
import type { FindingFacts, InvalidTaxId } from './rules';
import { taxIdProblemText, type Translator } from '../../domain/taxIdWording';

export type { Translator };

function invalidMessage(l10n: Translator, n: string, invalid: InvalidTaxId, scheme: string | undefined): string {
  if (invalid.problem === 'checksum' && invalid.gibSample) {
    // GİB's own sample documents carry these numbers: no "corrected" number to offer, only what it is.
    return invalid.kind === 'TCKN' || (!invalid.kind && n.length === 11)
      ? l10n.t("TCKN {0} is the number of GİB's sample documents (its check digits are wrong): write the person's real TCKN.", n)
      : l10n.t("VKN {0} is the number of GİB's sample documents (its check digit is wrong): write the party's real VKN.", n);
  }
  if (invalid.problem === 'empty' && scheme) return l10n.t('The {0} is empty: a party identification without its tax number makes the document invalid.', scheme);
  return taxIdProblemText(l10n, { value: n, ...invalid, kind: invalid.kind });
}

/** The party a role names, as a noun after "the" ("cannot stand for the {0}"). */
export function roleName(l10n: Translator, role: PartyRole): string {
  const names: Record<PartyRole, string> = {
    supplier: l10n.t('supplier'),
    customer: l10n.t('customer'),
    buyer: l10n.t('buyer'),
    seller: l10n.t('seller'),
    originator: l10n.t('originator'),
    payee: l10n.t('payee'),
    despatchSupplier: l10n.t('despatching party'),
    deliveryCustomer: l10n.t('delivery customer'),
    deliveryParty: l10n.t('delivery party'),
    carrier: l10n.t('carrier'),
    driver: l10n.t('driver'),
    sender: l10n.t('sender'),
    receiver: l10n.t('receiver'),
    producer: l10n.t('producer'),
    goodsOwner: l10n.t('owner of the goods'),
    intermediary: l10n.t('intermediary'),
    signatory: l10n.t('signer'),
    other: l10n.t('party'),
  };
  return names[role];
}

export function documentKindName(l10n: Translator, kind: UblDocumentKind): string {
  const names: Record<UblDocumentKind, string> = {
    Invoice: l10n.t('invoice'),
    DespatchAdvice: l10n.t('despatch advice (e-İrsaliye)'),
    ReceiptAdvice: l10n.t('receipt advice (irsaliye yanıtı)'),
    CreditNote: l10n.t('e-Müstahsil receipt'),
    ApplicationResponse: l10n.t('application response'),
  };
  return names[kind];
}

function placeholderMessage(l10n: Translator, f: FindingFacts): string {
  const p = f.placeholder as GibPlaceholder;
  const what =
    p.standsFor === 'companyAbroad'
      ? l10n.t("{0} is GİB's placeholder VKN for a company abroad", p.value)
      : l10n.t("{0} is GİB's placeholder TCKN for a foreign or unidentified person", p.value);
  if (f.code === 'gib-placeholder') return l10n.t('{0}: accepted for the buyer of an e-Arşiv, export or tax-free invoice.', what);
  switch (f.misplacement) {
    case 'documentKind':
      return l10n.t('{0}: GİB accepts it only for the buyer of an invoice, not in a {1}.', what, documentKindName(l10n, f.documentKind ?? 'Invoice'));
    case 'profile':
      return l10n.t('{0}: GİB accepts it only on e-Arşiv, export and tax-free invoices (EARSIVFATURA, IHRACAT, YOLCUBERABERFATURA), not under {1}.', what, f.profile ?? '');
    default:
      return l10n.t('{0}: GİB accepts it only for the buyer, it cannot stand for the {1}.', what, roleName(l10n, f.role ?? 'other'));
  }
}

export function findingMessage(l10n: Translator, f: FindingFacts): string {
  switch (f.code) {
    case 'invalid-tax-id':
      return invalidMessage(l10n, f.taxNumber, f.invalid ?? { kind: undefined, problem: 'checksum' }, f.scheme);
    case 'registry-not-downloaded':
      return f.otherListDownloaded
        ? l10n.t('The e-invoice registry list is not downloaded (only the e-despatch list is): e-invoice status not checked.')
        : l10n.t('Registry list not downloaded: e-invoice status not checked.');
    case 'despatch-registry-not-downloaded':
      return f.otherListDownloaded
        ? l10n.t('The e-despatch registry list (DespatchAdvice) is not downloaded, only the e-invoice list: e-despatch status not checked.')
        : l10n.t('The e-despatch registry list (DespatchAdvice) is not downloaded: e-despatch status not checked.');
    case 'not-e-invoice-user':
      return f.status === 'deregistered'
        ? l10n.t('{0} is not an e-invoice user (every alias deleted in the registry list): e-Arşiv expected, the profile is {1}.', f.taxNumber, f.profile ?? '')
        : l10n.t('{0} is not an e-invoice user: e-Arşiv expected, the profile is {1}.', f.taxNumber, f.profile ?? '');
    case 'not-utf8':
      return l10n.t('Turkish letters show as \uFFFD: this customer list is not UTF-8. Excel saves "CSV" in Windows-1254 (Excel for Mac: Mac Turkish); reopen it in its encoding before editing.');
    case 'e-invoice-user-on-e-archive':
      return l10n.t('{0} is a registered e-invoice user ({1}): an e-invoice profile expected, not {2}.', f.taxNumber, f.title ?? '', f.profile ?? '');
    case 'not-e-despatch-user':
      return f.status === 'deregistered'
        ? l10n.t('{0} is not an e-despatch user (every alias deleted in the e-despatch registry list): an e-İrsaliye under {1} cannot be delivered to it.', f.taxNumber, f.profile ?? '')
        : l10n.t('{0} is not an e-despatch user: an e-İrsaliye under {1} cannot be delivered to it.', f.taxNumber, f.profile ?? '');
    case 'gib-placeholder':
    case 'misplaced-gib-placeholder':
      return placeholderMessage(l10n, f);
  }
}
