// The *shape* of an answer for the Check Connection report: field names and JSON types, never a value.
//   describeShape({ Name: 'x', Aliases: [{ Alias: 'a', Type: 1 }], Fax: null })
//     → '{ Name: string, Aliases: [ { Alias: string, Type: integer } ], Fax: null }'

/** Nesting deeper than this is written as `…`. */
const MAX_DEPTH = 4;
/** Fields listed per object; more are counted, not named. */
const MAX_FIELDS = 30;
/** Array elements whose shapes are merged (the rest are assumed alike). */
const MAX_ELEMENTS = 50;

/**
 * A field name is shown only when it looks like a name (an identifier of modest length). A key
 * that holds data instead (a tax number, a date, a sentence: a dictionary keyed by values) would
 * leak that value, so it is written as `‹key›`.
 */
function fieldName(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]{0,63}$/.test(key) ? key : '‹key›';
}

type Shape =
  | { kind: 'null' | 'boolean' | 'integer' | 'number' | 'string' | 'emptyString' }
  | { kind: 'array'; element: Shape | undefined }
  | { kind: 'object'; fields: Map<string, { shape: Shape; seen: number }>; count: number; hidden: number }
  | { kind: 'union'; options: Shape[] }
  | { kind: 'deep' };

function shapeOf(value: unknown, depth: number): Shape {
  if (value === null || value === undefined) return { kind: 'null' };
  if (typeof value === 'boolean') return { kind: 'boolean' };
  if (typeof value === 'number') return { kind: Number.isInteger(value) ? 'integer' : 'number' };
  if (typeof value === 'string') return { kind: value === '' ? 'emptyString' : 'string' };
  if (depth >= MAX_DEPTH) return { kind: 'deep' };
  if (Array.isArray(value)) {
    const shapes = value.slice(0, MAX_ELEMENTS).map((item) => shapeOf(item, depth + 1));
    return { kind: 'array', element: shapes.length > 0 ? shapes.reduce(merge) : undefined };
  }
  const fields = new Map<string, { shape: Shape; seen: number }>();
  let hidden = 0;
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const name = fieldName(key);
    const existing = fields.get(name);
    if (existing) existing.shape = merge(existing.shape, shapeOf(v, depth + 1));
    else if (fields.size < MAX_FIELDS) fields.set(name, { shape: shapeOf(v, depth + 1), seen: 1 });
    else hidden++;
  }
  return { kind: 'object', fields, count: 1, hidden };
}

/** Two shapes seen at one place (array elements, repeated keys) become one. */
function merge(a: Shape, b: Shape): Shape {
  if (a.kind === 'union') {
    const i = a.options.findIndex((o) => o.kind === b.kind);
    const options = [...a.options];
    if (i >= 0) options[i] = merge(options[i], b);
    else options.push(b);
    return { kind: 'union', options };
  }
  if (b.kind === 'union') return merge(b, a);
  if (a.kind === 'object' && b.kind === 'object') {
    const fields = new Map(a.fields);
    for (const [name, f] of b.fields) {
      const existing = fields.get(name);
      if (existing) fields.set(name, { shape: merge(existing.shape, f.shape), seen: existing.seen + f.seen });
      else if (fields.size < MAX_FIELDS) fields.set(name, f);
    }
    return { kind: 'object', fields, count: a.count + b.count, hidden: Math.max(a.hidden, b.hidden) };
  }
  if (a.kind === 'array' && b.kind === 'array') {
    const element = a.element && b.element ? merge(a.element, b.element) : (a.element ?? b.element);
    return { kind: 'array', element };
  }
  // An empty and a filled string are both strings once merged.
  if ((a.kind === 'string' && b.kind === 'emptyString') || (a.kind === 'emptyString' && b.kind === 'string')) return { kind: 'string' };
  if ((a.kind === 'integer' && b.kind === 'number') || (a.kind === 'number' && b.kind === 'integer')) return { kind: 'number' };
  if (a.kind === b.kind) return a;
  return { kind: 'union', options: [a, b] };
}

function render(shape: Shape): string {
  switch (shape.kind) {
    case 'emptyString':
      return 'string (empty)';
    case 'deep':
      return '…';
    case 'union':
      return shape.options.map(render).join(' | ');
    case 'array':
      return shape.element ? `[ ${render(shape.element)} ]` : '[]';
    case 'object': {
      if (shape.fields.size === 0 && shape.hidden === 0) return '{}';
      const parts = [...shape.fields].map(([name, f]) => `${name}${f.seen < shape.count ? '?' : ''}: ${render(f.shape)}`);
      if (shape.hidden > 0) parts.push(`… ${shape.hidden} more`);
      return `{ ${parts.join(', ')} }`;
    }
    default:
      return shape.kind;
  }
}

/** The shape of a parsed JSON value: names and types only. A field missing from some array elements gets `?`. */
export function describeShape(value: unknown): string {
  return render(shapeOf(value, 0));
}
