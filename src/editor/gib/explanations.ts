// Plain explanations of GİB's cryptic rules, shown after GİB's own words. GİB's asserts have no ids, so
// an explanation is keyed by the abstract rule the assert comes from and a piece of its test that
// picks it out of that rule (test/unit/editor/gibExplanations.test.ts fails when GİB's package no
// longer has an assert so keyed). The translator comes in as a parameter (vscode.l10n in the
// extension), so this stays free of the vscode module.
import type { Translator } from '../../domain/taxIdWording';

export interface GibExplanation {
  /** The abstract rule's id in GİB's Schematron (the finding's `rule`). */
  readonly rule: string;
  /** A piece of the assert's test, unique within the rule (the finding's `test` contains it). */
  readonly test: string;
  readonly explain: (l10n: Translator) => string;
}

export const GIB_EXPLANATIONS: readonly GibExplanation[] = [
  {
    rule: 'InvoiceIDCheck',
    test: 'matches(cbc:ID',
    explain: (l10n) =>
      l10n.t('The document number must be 16 characters: a 3-character series of capital letters or digits, the 4-digit year, then a 9-digit sequence number (e.g. ABC2026000000001).'),
  },
  {
    rule: 'TaxExemptionReasonCheck',
    test: "cbc:TaxTypeCode = '0015'",
    explain: (l10n) =>
      l10n.t(
        'A KDV subtotal (tax code 0015) with a zero tax amount must say why no KDV is charged: give cac:TaxCategory/cbc:TaxExemptionReasonCode (e.g. 351) and cbc:TaxExemptionReason. Return (IADE), IHRACKAYITLI, OZELMATRAH, SGK and KONAKLAMAVERGISI invoices are not held to this.',
      ),
  },
  {
    rule: 'TaxExemptionReasonCodeCheck',
    test: 'contains($TaxExemptionReasonCodeType,',
    explain: (l10n) => l10n.t("Where a tax subtotal gives an exemption reason, cbc:TaxExemptionReasonCode must hold one of GİB's exemption codes (e.g. 351 for other non-exempt cases)."),
  },
  {
    rule: 'TaxExemptionReasonCodeCheck',
    test: '$istisnaTaxExemptionReasonCodeType',
    explain: (l10n) => l10n.t('This exemption code is a full exemption (istisna): the invoice type (cbc:InvoiceTypeCode) must then be ISTISNA, IADE, IHRACKAYITLI, SGK, YTBISTISNA or YTBIADE.'),
  },
  {
    rule: 'IADEInvioceCheck',
    test: 'count(cac:BillingReference/cac:InvoiceDocumentReference) > 0',
    explain: (l10n) =>
      l10n.t(
        'A return invoice (IADE, TEVKIFATIADE, YTBIADE, YTBTEVKIFATIADE) must name the invoices it returns: one cac:BillingReference/cac:InvoiceDocumentReference per returned invoice, with its 16-character number in cbc:ID and IADE in cbc:DocumentTypeCode.',
      ),
  },
  {
    rule: 'InvoiceTypeCodeCheck',
    test: "not(cbc:InvoiceTypeCode='IADE')",
    explain: (l10n) => l10n.t('A return invoice (type IADE) is accepted only with the profiles TEMELFATURA, EARSIVFATURA, ILAC_TIBBICIHAZ, YATIRIMTESVIK and IDIS: change the profile (cbc:ProfileID) or the type.'),
  },
  {
    rule: 'InvoiceTypeCodeCheck',
    test: "cbc:InvoiceTypeCode = 'SARJANLIK'",
    explain: (l10n) =>
      l10n.t('The profile ENERJI and the invoice types SARJ and SARJANLIK (electric vehicle charging) go only together: an ENERJI invoice has one of these types, and these types need the ENERJI profile.'),
  },
  {
    rule: 'InvoiceTypeCodeCheck',
    test: "not(cbc:InvoiceTypeCode = 'TEKNOLOJIDESTEK')",
    explain: (l10n) => l10n.t('TEKNOLOJIDESTEK invoices are e-Archive invoices only: the profile (cbc:ProfileID) must be EARSIVFATURA.'),
  },
  {
    rule: 'ProfileIDCheck',
    test: 'contains($ProfileIDType,',
    explain: (l10n) => l10n.t("cbc:ProfileID must be one of the e-Fatura profiles of GİB's code list, such as TEMELFATURA or TICARIFATURA; e-Archive invoices use EARSIVFATURA."),
  },
  {
    rule: 'CurrencyCodeCheck',
    test: "not(cbc:DocumentCurrencyCode!='TRY') or cac:PricingExchangeRate/cbc:CalculationRate",
    explain: (l10n) =>
      l10n.t('A document in a currency other than TRY must give the exchange rate: cac:PricingExchangeRate with cbc:SourceCurrencyCode, cbc:TargetCurrencyCode (TRY) and cbc:CalculationRate.'),
  },
  {
    rule: 'DespatchAddressCheck',
    test: 'cac:DeliveryAddress/cbc:CitySubdivisionName',
    explain: (l10n) => l10n.t("The despatch advice's delivery address (cac:Shipment/cac:Delivery/cac:DeliveryAddress) must give the district (cbc:CitySubdivisionName)."),
  },
  {
    rule: 'DespatchAddressCheck',
    test: 'cac:DeliveryAddress/cbc:CityName',
    explain: (l10n) => l10n.t("The despatch advice's delivery address (cac:Shipment/cac:Delivery/cac:DeliveryAddress) must give the city (cbc:CityName)."),
  },
  {
    rule: 'DespatchAddressCheck',
    test: 'cac:DeliveryAddress/cac:Country/cbc:Name',
    explain: (l10n) => l10n.t("The despatch advice's delivery address (cac:Shipment/cac:Delivery/cac:DeliveryAddress) must give the country's name (cac:Country/cbc:Name)."),
  },
  {
    rule: 'DespatchAddressCheck',
    test: 'cac:DeliveryAddress/cbc:PostalZone',
    explain: (l10n) =>
      l10n.t("The despatch advice's delivery address (cac:Shipment/cac:Delivery/cac:DeliveryAddress) must give a Turkish postal code (cbc:PostalZone): five digits, starting with the province's number 01 to 81."),
  },
  {
    rule: 'DespatchCarrierDriverCheck',
    test: 'count(cac:Shipment/cac:ShipmentStage/cac:DriverPerson) = 0',
    explain: (l10n) =>
      l10n.t('A despatch advice must say who carries the goods: a driver (cac:Shipment/cac:ShipmentStage/cac:DriverPerson) or a carrier company (cac:Shipment/cac:Delivery/cac:CarrierParty).'),
  },
  {
    rule: 'WithholdingTaxTotalCheck',
    test: '$WithholdingTaxTypeWithPercent',
    explain: (l10n) => l10n.t("Each withholding (tevkifat) code of GİB's code list has its own rate: cbc:Percent must be the rate of the code in cbc:TaxTypeCode."),
  },
];

/** The explanation of a rule finding (by its abstract rule and test), if the rule is one we explain. */
export function explanationFor(finding: { readonly rule?: string; readonly test?: string }): GibExplanation | undefined {
  const { rule, test } = finding;
  if (!rule || !test) return undefined;
  return GIB_EXPLANATIONS.find((e) => e.rule === rule && test.includes(e.test));
}
