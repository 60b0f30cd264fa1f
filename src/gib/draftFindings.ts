// Which findings only say that a document is not signed yet. GİB's XSD requires ext:UBLExtensions
// with the XAdES signature in it, and a few rules require the signature's parts: in an editor an
// unsigned draft is the normal state, so these are set apart (shown only when asked for). Only
// applied to documents with no ds:Signature at all. Plain Node.

export interface FindingText {
  readonly kind: 'xsd' | 'rule';
  readonly message: string;
  readonly test?: string;
}

const SIGNATURE_PARTS = /\b(ext:)?UBLExtensions?\b|ExtensionContent|\bds:Signature\b|xades:|X509|SignatureValue|SignedInfo/;

export function isSignatureOnly(f: FindingText): boolean {
  // libxml2 names elements as {namespace}local: the extension elements and the XML signature's.
  if (f.kind === 'xsd') return /CommonExtensionComponents-2\}(UBLExtensions|UBLExtension|ExtensionContent)\b|xmldsig#\}/.test(f.message);
  return SIGNATURE_PARTS.test(f.test ?? '') || /ext:UBLExtensions|ds:Signature/.test(f.message);
}
