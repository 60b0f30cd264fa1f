// Company certificates (e-signature / financial seal / HSM).
import { route, type RouteSpec } from '../router';
import { CERTIFICATE_TYPES, type CertificateRecord } from '../records';
import { conflict, notFound, unprocessable } from '../errors';
import { emptyListAnswer, recordOrMissing } from '../answers';
import { expectObject, optString, parseEnum, reqInt, type JsonObject } from '../validate';
import { deleteById } from '../context';

function certificateFields(body: JsonObject): Omit<CertificateRecord, 'ID' | 'TaxNumber'> {
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

export const certificateRoutes: RouteSpec[] = [
  // Spec-silent (behaviour point emptyList): an account without certificates.
  route('GET', '/general/Company/Certificate', 'certificates.list', (ctx) =>
    emptyListAnswer(ctx, ctx.app.state.certificates, 'no certificate')),
  route('GET', '/general/Company/Certificate/{SerialNumber}', 'certificates.get', (ctx) =>
    recordOrMissing(ctx, ctx.app.state.certificates.find((c) => c.SerialNo === ctx.params.SerialNumber),
      notFound('Certificate not found.', `SerialNumber ${ctx.params.SerialNumber}`))),
  route('POST', '/general/Company/Certificate', 'certificates.create', async ({ app, json }) => {
    const fields = certificateFields(expectObject(await json(), 'CreateCompanyCertificateCommand'));
    if (app.state.certificates.some((c) => c.SerialNo === fields.SerialNo)) throw conflict('A certificate with this serial number exists.', `SerialNo ${fields.SerialNo}`);
    app.state.certificates.push({ ID: app.state.nextIds.certificate++, TaxNumber: app.state.company.TaxNumber, ...fields });
    app.changed();
    return true;
  }, { answersBoolean: true }),
  route('PUT', '/general/Company/Certificate', 'certificates.update', async ({ app, json }) => {
    const body = expectObject(await json(), 'UpdateCompanyCertificateCommand');
    const id = reqInt(body, 'ID');
    const fields = certificateFields(body);
    const index = app.state.certificates.findIndex((c) => c.ID === id);
    if (index < 0) throw notFound('Certificate not found.', `ID ${id}`);
    if (app.state.certificates.some((c) => c.ID !== id && c.SerialNo === fields.SerialNo)) throw conflict('A certificate with this serial number exists.', `SerialNo ${fields.SerialNo}`);
    app.state.certificates[index] = { ...app.state.certificates[index], ...fields };
    app.changed();
    return true;
  }, { answersBoolean: true }),
  route('DELETE', '/general/Company/Certificate/{ID}', 'certificates.delete', ({ app, params }) =>
    deleteById(app, app.state.certificates, params.ID, 'Certificate'), { answersBoolean: true }),
];
