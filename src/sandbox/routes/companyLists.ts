// The company's own lists: certificates (e-signature / financial seal / HSM), documents, and
// identification entries (UBL-TR PartyIdentification scheme ids; create takes query parameters).
// Documents' shapes are assumed as src/api/types.ts writes them (CreateCompanyDocumentCommand,
// CompanyDocumentResponse): the specification does not show them.
import { route, type RouteSpec, type SandboxContext } from '../router';
import { CERTIFICATE_TYPES, COMPANY_IDENTIFICATION_TYPES, type CertificateResponse } from '../../api/types';
import type { DocumentRecord } from '../records';
import { conflict, notFound, unprocessable } from '../errors';
import { emptyListAnswer, recordOrMissing } from '../answers';
import { expectObject, isBase64, optString, parseEnum, parseInt32, reqInt, type JsonObject } from '../validate';
import { nowString } from '../seed/dates';

function certificateFields(body: JsonObject): Omit<CertificateResponse, 'ID' | 'TaxNumber'> {
  const texts = ['SerialNo', 'StartDate', 'EndDate', 'Password', 'Description'] as const;
  const [SerialNo, StartDate, EndDate, Password, Description] = texts.map((field) => optString(body, field) ?? null);
  const Type = parseEnum(body.Type, CERTIFICATE_TYPES, 'Type');
  if (!SerialNo || !SerialNo.trim()) throw unprocessable('SerialNo is required.', 'SerialNo');
  for (const [name, d] of [['StartDate', StartDate], ['EndDate', EndDate]] as const) {
    if (d !== null && Number.isNaN(Date.parse(d))) throw unprocessable(`${name} is not a date.`, name);
  }
  if (StartDate && EndDate && Date.parse(EndDate) < Date.parse(StartDate)) throw unprocessable('EndDate is before StartDate.', 'EndDate');
  return { SerialNo: SerialNo.trim(), StartDate, EndDate, Type, Password, Description };
}

/** DELETE …/{ID} from a list of the state: 400 for a bad ID, 422 for one below 1 when `positive`, 404 unknown. */
function deleteById(app: SandboxContext, list: { ID: number }[], param: string, what: string, positive = false) {
  const id = parseInt32(param, 'ID');
  if (positive && id < 1) throw unprocessable('ID must be positive.', `ID ${id}`);
  const index = list.findIndex((r) => r.ID === id);
  if (index < 0) throw notFound(`${what} not found.`, `ID ${id}`);
  list.splice(index, 1);
  app.changed();
  return true;
}

const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;

function documentResponse(d: DocumentRecord) {
  return { ID: d.ID, Name: d.Name, FileType: d.FileType, Size: d.Size, CreatedDate: d.CreatedDate };
}

export const companyListRoutes: RouteSpec[] = [
  // Spec-silent (behaviour point emptyList): an account without certificates.
  route('certificates.list', (ctx) =>
    emptyListAnswer(ctx, ctx.app.state.certificates, 'no certificate')),
  route('certificates.get', (ctx) =>
    recordOrMissing(ctx, ctx.app.state.certificates.find((c) => c.SerialNo === ctx.params.SerialNumber),
      notFound('Certificate not found.', `SerialNumber ${ctx.params.SerialNumber}`))),
  route('certificates.create', async ({ app, json }) => {
    const fields = certificateFields(expectObject(await json(), 'CreateCompanyCertificateCommand'));
    if (app.state.certificates.some((c) => c.SerialNo === fields.SerialNo)) throw conflict('A certificate with this serial number exists.', `SerialNo ${fields.SerialNo}`);
    app.state.certificates.push({ ID: app.state.nextIds.certificate++, TaxNumber: app.state.company.TaxNumber, ...fields });
    app.changed();
    return true;
  }),
  route('certificates.update', async ({ app, json }) => {
    const body = expectObject(await json(), 'UpdateCompanyCertificateCommand');
    const id = reqInt(body, 'ID');
    const fields = certificateFields(body);
    const index = app.state.certificates.findIndex((c) => c.ID === id);
    if (index < 0) throw notFound('Certificate not found.', `ID ${id}`);
    if (app.state.certificates.some((c) => c.ID !== id && c.SerialNo === fields.SerialNo)) throw conflict('A certificate with this serial number exists.', `SerialNo ${fields.SerialNo}`);
    app.state.certificates[index] = { ...app.state.certificates[index], ...fields };
    app.changed();
    return true;
  }),
  route('certificates.delete', ({ app, params }) =>
    deleteById(app, app.state.certificates, params.ID, 'Certificate')),
  // Spec-silent (behaviour point emptyList).
  route('documents.list', (ctx) =>
    emptyListAnswer(ctx, ctx.app.state.documents.map(documentResponse), 'no document')),
  route('documents.create', async ({ app, json }) => {
    const body = expectObject(await json(), 'CreateCompanyDocumentCommand');
    const name = (optString(body, 'Name') ?? '').trim();
    const fileType = (optString(body, 'FileType') ?? '').trim().replace(/^\./, '').toLowerCase();
    const content = (optString(body, 'Base64String') ?? '').replace(/\s+/g, '');
    if (!name) throw unprocessable('Name is required.', 'Name');
    if (!fileType) throw unprocessable('FileType is required.', 'FileType');
    if (!content || !isBase64(content)) throw unprocessable('Base64String is not valid base64.', 'Base64String');
    const size = Buffer.byteLength(content, 'base64');
    if (size > MAX_DOCUMENT_BYTES) throw unprocessable('The document is larger than 10 MB.', `${size} bytes`);
    if (app.state.documents.some((d) => d.Name.toLocaleLowerCase('tr') === name.toLocaleLowerCase('tr'))) throw conflict('A document with this name exists.', `Name ${name}`);
    const doc: DocumentRecord = { ID: app.state.nextIds.document++, Name: name, FileType: fileType, Size: size, CreatedDate: nowString(), Base64String: content };
    app.state.documents.push(doc);
    app.changed();
    return documentResponse(doc);
  }),
  route('documents.delete', ({ app, params }) =>
    deleteById(app, app.state.documents, params.ID, 'Document', true)),
  // Spec-silent (behaviour point emptyList).
  route('identifications.list', (ctx) =>
    emptyListAnswer(ctx, ctx.app.state.identifications, 'no identification')),
  route('identifications.create', ({ app, query }) => {
    const name = parseEnum(query.get('Name') ?? '', COMPANY_IDENTIFICATION_TYPES, 'Name');
    const value = (query.get('Value') ?? '').trim();
    if (!value) throw unprocessable('Value is required.', 'Value');
    const list = app.state.identifications;
    if (list.some((i) => i.Name === name && i.Value === value)) throw conflict('This identification already exists.', `${name} ${value}`);
    const created = { ID: app.state.nextIds.identification++, CompanyID: 1, Name: name, Value: value };
    list.push(created);
    app.changed();
    return created;
  }),
  route('identifications.delete', ({ app, params }) =>
    deleteById(app, app.state.identifications, params.ID, 'Identification', true)),
];
