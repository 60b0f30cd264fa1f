// Company documents. Assumed shapes (the specification does not show them):
// CreateCompanyDocumentCommand = { Name, FileType (e.g. "pdf"), Base64String };
// CompanyDocumentResponse = { ID, Name, FileType, Size, CreatedDate }; the same Name again -> 409;
// empty or bad base64 or more than 10 MB -> 422.
import { route, type RouteSpec } from '../router';
import type { DocumentRecord } from '../records';
import { conflict, unprocessable } from '../errors';
import { expectObject, isBase64, optString } from '../validate';
import { nowString } from '../seed/dates';
import { emptyListAnswer } from '../answers';
import { deleteById } from '../context';

const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;

function toResponse(d: DocumentRecord) {
  return { ID: d.ID, Name: d.Name, FileType: d.FileType, Size: d.Size, CreatedDate: d.CreatedDate };
}

export const documentRoutes: RouteSpec[] = [
  // Spec-silent (behaviour point emptyList).
  route('GET', '/general/CompanyDocuments', 'documents.list', (ctx) =>
    emptyListAnswer(ctx, ctx.app.state.documents.map(toResponse), 'no document'), { notInOlderExport: true }),
  route('POST', '/general/CompanyDocuments', 'documents.create', async ({ app, json }) => {
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
    return toResponse(doc);
  }, { notInOlderExport: true }),
  route('DELETE', '/general/CompanyDocuments/{ID}', 'documents.delete', ({ app, params }) =>
    deleteById(app, app.state.documents, params.ID, 'Document', true), { answersBoolean: true, notInOlderExport: true }),
];
