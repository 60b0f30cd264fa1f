// Company documents. Assumed shapes (the specification does not show them):
// CreateCompanyDocumentCommand = { Name, FileType (e.g. "pdf"), Base64String };
// CompanyDocumentResponse = { ID, Name, FileType, Size, CreatedDate }; the same Name again -> 409;
// empty or bad base64 or more than 10 MB -> 422.
import type { RouteSpec } from '../router';
import type { DocumentRecord } from '../records';
import { conflict, notFound, unprocessable } from '../errors';
import { expectObject, optString, parseInt32 } from '../validate';
import { nowString } from '../seed/dates';
import { emptyListAnswer } from '../answers';

export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function toResponse(d: DocumentRecord) {
  return { ID: d.ID, Name: d.Name, FileType: d.FileType, Size: d.Size, CreatedDate: d.CreatedDate };
}

export const documentRoutes: RouteSpec[] = [
  {
    method: 'GET',
    path: '/general/CompanyDocuments',
    write: false,
    name: 'documents.list',
    // Spec-silent (behaviour point emptyList).
    handler: ({ app, res }) => emptyListAnswer(res, app.behaviour.answerFor('emptyList'), app.state.documents.length === 0, app.state.documents.map(toResponse), 'no document'),
  },
  {
    method: 'POST',
    path: '/general/CompanyDocuments',
    write: true,
    name: 'documents.create',
    handler: async ({ app, json }) => {
      const body = expectObject(await json(), 'CreateCompanyDocumentCommand');
      const name = (optString(body, 'Name') ?? '').trim();
      const fileType = (optString(body, 'FileType') ?? '').trim().replace(/^\./, '').toLowerCase();
      const content = (optString(body, 'Base64String') ?? '').replace(/\s+/g, '');
      if (!name) throw unprocessable('Name is required.', 'Name');
      if (!fileType) throw unprocessable('FileType is required.', 'FileType');
      if (!content || content.length % 4 !== 0 || !BASE64.test(content)) throw unprocessable('Base64String is not valid base64.', 'Base64String');
      const size = Buffer.byteLength(content, 'base64');
      if (size > MAX_DOCUMENT_BYTES) throw unprocessable('The document is larger than 10 MB.', `${size} bytes`);
      if (app.state.documents.some((d) => d.Name.toLocaleLowerCase('tr') === name.toLocaleLowerCase('tr'))) throw conflict('A document with this name exists.', `Name ${name}`);
      const doc: DocumentRecord = { ID: app.state.nextIds.document++, Name: name, FileType: fileType, Size: size, CreatedDate: nowString(), Base64String: content };
      app.state.documents.push(doc);
      app.changed();
      return toResponse(doc);
    },
  },
  {
    method: 'DELETE',
    path: '/general/CompanyDocuments/{ID}',
    write: true,
    name: 'documents.delete',
    handler: ({ app, params }) => {
      const id = parseInt32(params.ID, 'ID');
      if (id < 1) throw unprocessable('ID must be positive.', `ID ${id}`);
      const index = app.state.documents.findIndex((d) => d.ID === id);
      if (index < 0) throw notFound('Document not found.', `ID ${id}`);
      app.state.documents.splice(index, 1);
      app.changed();
      return true;
    },
  },
];
