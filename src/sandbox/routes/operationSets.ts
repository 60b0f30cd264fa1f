// Route names grouped for behaviour points that act on whole operations (src/sandbox/behaviour.ts).

/**
 * Operations whose documented 200 answer is a boolean (behaviour point booleanAnswer: with `false`
 * they answer false and change nothing).
 */
export const BOOLEAN_ANSWER_ROUTES: ReadonlySet<string> = new Set([
  'certificates.create', 'certificates.update', 'certificates.delete',
  'identifications.delete',
  'customers.update', 'customers.delete', 'customers.deleteBulk',
  'documents.delete',
  'taxOffice.update',
  'mailing.setChat', 'mailing.setEmail',
  'ebill.updateTemplate', 'evoucher.updateSeries',
]);

/**
 * General API operations the platform's older OpenAPI export (shared/spec/reference/general.swagger.json)
 * lacks (behaviour point operations: with `olderExport` they answer 404 with an empty body, as an
 * unknown route does). /ebill and /evoucher belong to other APIs that export does not describe, so they
 * stay. test/unit/sandbox/behaviour.test.ts checks this list against the export.
 */
export const NOT_IN_OLDER_EXPORT: ReadonlySet<string> = new Set([
  'customers.get',
  'documents.list', 'documents.create', 'documents.delete',
  'taxOffice.get', 'taxOffice.update',
  'mailing.setEmail',
]);
