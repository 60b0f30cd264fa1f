// The page messages of the forms and the preview as valibot schemas: the library way of the checks in
// src/webviews/protocol.ts and src/preview/protocol.ts, for librariesMessages.bench.ts to weigh against
// ours (bundle bytes, time per message, what the reasons say). Valibot checks shape and types; the
// guards it has no schema for (a plain object, no prototype keys, a bound on the whole message's size)
// stay ours in front of it, as they would in the extension.
import * as v from 'valibot';
import { approximateSize, FORM_KINDS, isPlainObject, LIMITS } from '../../src/webviews/protocol';

const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const text = (max: number) => v.pipe(v.string(), v.maxLength(max));
const requestId = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(LIMITS.requestId - 1));

function formValues(allowed?: ReadonlySet<string>) {
  return v.pipe(
    v.record(
      v.pipe(
        v.string(),
        v.maxLength(LIMITS.fieldName),
        v.check((name) => !allowed || allowed.has(name), 'unknown field name'),
      ),
      v.union([text(LIMITS.valueLength), v.boolean()]),
    ),
    v.check((values) => Object.keys(values).length <= LIMITS.fields, `more than ${LIMITS.fields} values`),
  );
}

/** A form page's message; `allowed`: the field names its values may carry (one schema per panel). */
export function formPageSchema(allowed?: ReadonlySet<string>) {
  const values = formValues(allowed);
  const target = { kind: v.optional(v.picklist(FORM_KINDS)), recordKey: v.optional(text(64)) };
  return v.variant('type', [
    v.strictObject({ type: v.literal('ready'), ...target }),
    v.strictObject({ type: v.literal('draft'), dirty: v.boolean(), values, ...target }),
    v.strictObject({ type: v.literal('save'), requestId, values, ...target }),
    v.strictObject({ type: v.literal('reload'), requestId, ...target }),
    v.strictObject({ type: v.literal('lookup'), requestId, taxNumber: text(32), ...target }),
  ]);
}

const mode = v.picklist(['design', 'structured']);

export const previewPageSchema = v.variant('type', [
  v.strictObject({ type: v.literal('ready'), xslt: v.boolean(), engine: text(200) }),
  v.strictObject({ type: v.literal('mode'), mode }),
  v.strictObject({
    type: v.literal('rendered'),
    seq: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(2 ** 31)),
    mode,
    ms: v.pipe(v.number(), v.minValue(0), v.maxValue(3_600_000)),
    outcome: v.picklist(['design', 'structured', 'designFailed', 'noXslt']),
  }),
  v.strictObject({ type: v.literal('upload') }),
  v.strictObject({ type: v.literal('pickInvoice') }),
  v.strictObject({ type: v.literal('scripts'), allow: v.boolean() }),
]);

/** Our guards, then the schema: the parsed message, or valibot's first issue as the reason. */
export function checkWithSchema(schema: v.GenericSchema, raw: unknown): { ok: true; message: unknown } | { ok: false; reason: string } {
  if (!isPlainObject(raw)) return { ok: false, reason: 'not a plain object' };
  if (approximateSize(raw, LIMITS.messageChars) > LIMITS.messageChars) return { ok: false, reason: `larger than ${LIMITS.messageChars} characters` };
  if (Object.keys(raw).some((k) => PROTOTYPE_KEYS.has(k)) || (isPlainObject(raw.values) && Object.keys(raw.values).some((k) => PROTOTYPE_KEYS.has(k)))) {
    return { ok: false, reason: 'a prototype key' };
  }
  const result = v.safeParse(schema, raw);
  return result.success ? { ok: true, message: result.output } : { ok: false, reason: result.issues[0].message };
}
