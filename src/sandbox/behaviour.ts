// The sandbox behaviour table (README's spec-silent table, in its order; everything else names a point by
// its id here, never by its row number): every point where the specification is silent, with the
// plausible answers the real platform might give. Profile `default` takes each point's first answer
// (the answers the tests assume unless they say otherwise); profile `alternate` takes the answer marked `alternate`.
// A quirk overrides one point. Routes ask `answerFor(point)`; they never test a profile name.
// The point ids and answer names are those the client (src/api/specSilent.ts) and Check Connection use.

/** A point: its answers (profile `default` takes the first), profile `alternate`'s answer, and what it is about. */
function point<const A extends readonly string[]>(answers: A, alternate: A[number], means: string) {
  return { answers, alternate, means };
}

export const BEHAVIOUR_POINTS = {
  // `oddText` is in neither profile: it exists so Check Connection can prove it reports "differs".
  registryLookupMissing: point(['404', 'emptyBody', 'null', 'emptyObject', 'oddText', 'noContent'], 'null',
    'GET GlobalCompany/GetGlobalCustomerInfo/{TaxNumber} for a valid, unregistered number'),
  recordLookupMissing: point(['404', 'emptyBody', 'null', 'noContent'], 'emptyBody',
    'GET Customers/GetCustomerInfo/{TaxNumber}, Company/Certificate/{SerialNumber} and Customers/{ID} for an unknown value: 404 / empty 200 / 200 null / 204 No Content (ASP.NET\'s answer to an action returning null)'),
  customerBatchBadRow: point(['rejectAll', 'createGood'], 'createGood',
    'POST Customers with bad rows: whole array rejected 422 / good rows stored and the 422 names the bad ones'),
  bulkLookupMissing: point(['omit', 'emptyAliases', 'nullEntry'], 'emptyAliases',
    'POST GlobalCompany/GetGlobalCustomerInfo with unregistered numbers: left out / empty Aliases / null entries'),
  booleanAnswer: point(['true', 'false'], 'false',
    'operations documented as answering a boolean: true / false and nothing changed'),
  companyPutOmitted: point(['keep', 'reset'], 'reset',
    'PUT Company: omitted fields unchanged / reset to defaults (empty strings, the enum\'s first value)'),
  // `refuse` first: an SDK notes that the series update answers 400 when the flags are left out.
  templatePutOmitted: point(['refuse', 'keep', 'reset'], 'reset',
    'PUT ebill/Templates and evoucher/Series with IsActive or IsDefault left out: 400 / others unchanged / read as null or false'),
  badKeyStatus: point(['401', '403'], '403',
    'the status of a wrong or expired API key'),
  pageSizeLimit: point(['cap100', 'cap50', 'ignore'], 'cap50',
    'PageSize above the limit: capped at 100 / capped at 50 / PageSize ignored, always 25 (the answer says so)'),
  registryZipEncoding: point(['jsonBase64', 'textBase64', 'rawZip'], 'rawZip',
    'GET GlobalCompany/{AliasType}/{GlobalUserType}: base64 in a JSON string / unquoted base64 text / raw ZIP bytes'),
  sortColumns: point(['anyField', 'fixedList'], 'fixedList',
    'Customers SortColumn: any record field / only the columns the documentation names (others 400)'),
  encodedSlash: point(['decoded', 'keptEncoded', 'notFound'], 'notFound',
    '%2F in a path value: decoded into the value / left encoded / 404'),
  operations: point(['all', 'olderExport'], 'olderExport',
    'operations the older OpenAPI export lacks: served / 404 with an empty body'),
  nullableFields: point(['filled', 'nulls'], 'nulls',
    'fields the schema allows to be null: always filled / null in some records, some paging numbers missing or negative'),
  // Points found in review (not in the first agreed table).
  pageBeyondEnd: point(['emptyContent', 'lastPage', 'notFound'], 'lastPage',
    'a list Page past the last page: empty Content / the last page again (Page says which) / 404'),
  customerCreateAnswer: point(['countText', 'true', 'emptyBody'], 'true',
    'the 200 answer of POST Customers: a JSON string saying how many / JSON true / an empty body'),
  dateFormat: point(['local', 'offset'], 'offset',
    'date-times in answers: without offset (2026-01-01T00:00:00) / with offset and fractions (2026-01-01T00:00:00.000+03:00)'),
  searchNoMatch: point(['emptyArray', 'notFound'], 'notFound',
    'GET Customers/Search/{text} and GlobalCompany/Search/{text} with no match: [] / 404'),
  // `accept` is in neither profile: a service that does not keep tax numbers unique, so that only the
  // client's own look-up before it sends a row again keeps a customer from being stored twice.
  duplicateStatus: point(['422', '409', 'accept'], '409',
    'a customer tax number that exists already (POST and PUT Customers): 422 business rule / 409 with code 1015 "already added" / accepted, a second customer with that tax number'),
  // Points read from public code that called the real service (README, "public evidence").
  // `notFound` first: an SDK's integration test got 404 from the certificate list of a test account without certificates.
  emptyList: point(['notFound', 'emptyArray', 'bareNotFound'], 'emptyArray',
    'GET Company/Certificate, CompanyIdentification, CompanyDocuments and Customers with nothing to list: 404 with the error body / [] (an empty page) / 404 with an empty body, as an unknown route answers'),
  // `400` first: the specification lists only 400 (no 409 or 422) for creating customers.
  customerBatchStatus: point(['400', '422', '400unnamed'], '422',
    'POST Customers refused for some rows: 400 validation problem naming each row ([i].Field) / 422 naming them (index i) / 400 whose messages name no row (a duplicate still answers 409 under duplicateStatus=409)'),
};

export type PointId = keyof typeof BEHAVIOUR_POINTS;
export type AnswerOf<P extends PointId> = (typeof BEHAVIOUR_POINTS)[P]['answers'][number];
export const PROFILES = ['default', 'alternate'] as const;
export type ProfileName = (typeof PROFILES)[number];
export type Quirks = { [P in PointId]?: AnswerOf<P> };

/** What `startSandbox({ behaviour })`, the CLI and POST /__sandbox/behaviour accept. */
export interface BehaviourSettings {
  profile?: ProfileName;
  /** point -> answer; an answer of `null` removes that override (run-time changes only). */
  quirks?: Partial<Record<PointId, string | null>>;
}

export const POINT_IDS = Object.keys(BEHAVIOUR_POINTS) as PointId[];

export function isPointId(id: string): id is PointId {
  return Object.prototype.hasOwnProperty.call(BEHAVIOUR_POINTS, id);
}

function checkAnswer(point: string, answer: unknown): string {
  if (!isPointId(point)) throw new TypeError(`unknown behaviour point ${point} (known: ${POINT_IDS.join(', ')})`);
  const answers: readonly string[] = BEHAVIOUR_POINTS[point].answers;
  if (typeof answer !== 'string' || !answers.includes(answer)) throw new TypeError(`${point} answers one of: ${answers.join(', ')}`);
  return answer;
}

/** `point=answer`, or `point` alone for its alternate answer (the CLI's --quirk). */
export function parseQuirk(text: string): [PointId, string] {
  const [point, answer] = text.includes('=') ? (text.split(/=(.*)/s, 2) as [string, string]) : [text, undefined];
  if (!isPointId(point)) throw new TypeError(`unknown behaviour point ${point} (known: ${POINT_IDS.join(', ')})`);
  return [point, checkAnswer(point, answer ?? BEHAVIOUR_POINTS[point].alternate)];
}

export function validateBehaviour(settings: unknown): asserts settings is BehaviourSettings {
  if (settings === null || typeof settings !== 'object' || Array.isArray(settings)) throw new TypeError('behaviour must be an object');
  const s = settings as BehaviourSettings;
  if (s.profile !== undefined && !PROFILES.includes(s.profile)) throw new TypeError(`profile must be one of: ${PROFILES.join(', ')}`);
  if (s.quirks !== undefined) {
    if (s.quirks === null || typeof s.quirks !== 'object' || Array.isArray(s.quirks)) throw new TypeError('quirks must be an object');
    for (const [point, answer] of Object.entries(s.quirks)) if (answer !== null) checkAnswer(point, answer);
  }
}

export class Behaviour {
  private profile: ProfileName = 'default';
  private overrides: Quirks = {};

  constructor(settings?: BehaviourSettings) {
    if (settings) this.change(settings);
  }

  /** The effective answer of one point. */
  answerFor<P extends PointId>(point: P): AnswerOf<P> {
    const override = this.overrides[point];
    if (override !== undefined) return override as AnswerOf<P>;
    const spec = BEHAVIOUR_POINTS[point];
    return (this.profile === 'alternate' ? spec.alternate : spec.answers[0]) as AnswerOf<P>;
  }

  /**
   * A new profile drops the earlier overrides (unless quirks come with it); quirks merge into the
   * overrides, `null` removing one. Validates everything before changing anything.
   */
  change(settings: BehaviourSettings): void {
    validateBehaviour(settings);
    const overrides: Quirks = settings.profile !== undefined ? {} : { ...this.overrides };
    for (const [point, answer] of Object.entries(settings.quirks ?? {}) as Array<[PointId, string | null]>) {
      if (answer === null) delete overrides[point];
      else (overrides as Record<string, string>)[point] = answer;
    }
    if (settings.profile !== undefined) this.profile = settings.profile;
    this.overrides = overrides;
  }

  /** For GET /__sandbox/state: the profile, every point's effective answer, and the overrides. */
  snapshot(): { profile: ProfileName; quirks: Record<PointId, string>; overrides: Quirks } {
    const quirks = Object.fromEntries(POINT_IDS.map((point) => [point, this.answerFor(point)])) as Record<PointId, string>;
    return { profile: this.profile, quirks, overrides: { ...this.overrides } };
  }
}
