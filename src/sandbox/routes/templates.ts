// PUT /ebill/Templates and PUT /evoucher/Series: flags with one default at a time.
import { createHash } from 'node:crypto';
import { route, type RouteSpec } from '../router';
import type { SeriesRecord } from '../records';
import { badRequest, notFound, unprocessable, ValidationMessages } from '../errors';
import { expectObject, isBase64, optBool, optString, reqInt, type JsonObject } from '../validate';

type Flags = Record<'IsActive' | 'IsDefault', boolean | null | undefined>;

/**
 * Applies IsActive/IsDefault: making one the default clears the others; the default must stay
 * active; the only default cannot be unset (set another one instead). A broken rule is `refused`.
 */
function applyFlags<T extends SeriesRecord>(list: T[], item: T, flags: Flags, what: string, refused = unprocessable) {
  const nextActive = flags.IsActive ?? item.IsActive;
  const nextDefault = flags.IsDefault ?? item.IsDefault;
  if (nextDefault && !nextActive) throw refused(`An inactive ${what} cannot be the default.`, `ID ${item.ID}`);
  if (item.IsDefault && flags.IsDefault === false) throw refused(`There must be a default ${what}; make another one the default instead.`, `ID ${item.ID}`);
  item.IsActive = nextActive;
  if (nextDefault && !item.IsDefault) for (const other of list) other.IsDefault = other === item;
}

/**
 * Spec-silent (behaviour point templatePutOmitted): an omitted flag is refused by the model
 * validation, before the record is looked for (`refuse`: 400, as an SDK notes for the series update),
 * kept (`keep`), or the server binds it as a non-nullable bool and reads false (`reset`). An omitted
 * Name stays either way: a null name cannot be stored, and no file means no new file.
 */
function readFlags(answer: 'refuse' | 'keep' | 'reset', body: JsonObject): Flags {
  const flags = { IsActive: optBool(body, 'IsActive'), IsDefault: optBool(body, 'IsDefault') };
  const omitted = (['IsActive', 'IsDefault'] as const).filter((f) => flags[f] == null);
  if (answer === 'refuse' && omitted.length) throw new ValidationMessages(omitted.map((f) => [f, `The ${f} field is required.`]));
  if (answer === 'reset') return { IsActive: flags.IsActive ?? false, IsDefault: flags.IsDefault ?? false };
  return flags;
}

export const templateRoutes: RouteSpec[] = [
  route('ebill.updateTemplate', async ({ app, json }) => {
    const body = expectObject(await json(), 'UpdateTemplateCommand');
    const id = reqInt(body, 'ID');
    const name = optString(body, 'Name');
    const flags = readFlags(app.behaviour.answerFor('templatePutOmitted'), body);
    const file = optString(body, 'Base64String');
    const item = app.state.templates.find((t) => t.ID === id);
    if (!item) throw notFound('Template not found.', `ID ${id}`);
    if (name !== undefined && name !== null && !name.trim()) throw unprocessable('Name cannot be empty.', 'Name');
    if (file && !isBase64(file)) throw unprocessable('Base64String is not valid base64.', 'Base64String');
    applyFlags(app.state.templates, item, flags, 'template');
    if (name) item.Name = name.trim();
    if (file) {
      const bytes = Buffer.from(file, 'base64');
      item.FileSize = bytes.length;
      item.FileSha256 = createHash('sha256').update(bytes).digest('hex');
    }
    app.changed();
    return true;
  }),
  route('evoucher.updateSeries', async ({ app, json }) => {
    const body = expectObject(await json(), 'UpdateSerieCommand');
    const id = reqInt(body, 'ID');
    const flags = readFlags(app.behaviour.answerFor('templatePutOmitted'), body);
    const item = app.state.series.find((s) => s.ID === id);
    if (!item) throw notFound('Series not found.', `ID ${id}`);
    // The specification lists no 422 for series: the same rule answers 400 here.
    applyFlags(app.state.series, item, flags, 'series', badRequest);
    app.changed();
    return true;
  }),
];
