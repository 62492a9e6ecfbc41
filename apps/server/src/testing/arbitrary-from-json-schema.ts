import fc from 'fast-check';
import { hostileValue } from './hostile-values.js';

/** The part of JSON Schema the OpenAPI document (zod's JSON Schema output) uses. */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  default?: unknown;
  $ref?: string;
}

export interface SchemaContext {
  /** `#/components/schemas/…` targets. */
  components: Record<string, JsonSchema>;
  /** Real ids of this run's data (a deal, the traders, a key): offered wherever a uuid goes. */
  knownIds: readonly string[];
  /** How often (0–1) a value is replaced by a hostile one instead of one the schema allows. */
  hostility: number;
  /**
   * Values the domain accepts for fields of these names (an amount in base units, a checksummed
   * address), drawn half of the time: a schema's `string` says too little to get past the use case.
   */
  hints?: Record<string, fc.Arbitrary<unknown>>;
  /** Only values the schema (and the hints) allow: no hostile values, poisons or extra fields. */
  valid?: boolean;
}

/**
 * An arbitrary of values for `schema`: mostly values the schema allows (so requests reach the
 * handlers behind validation, with real ids), mixed at every level with hostile ones (wrong types,
 * NUL and lone surrogates, huge and deep values, prototype keys) and extra fields.
 */
export function arbitraryFromJsonSchema(
  schema: JsonSchema,
  context: SchemaContext,
  depth = 0,
): fc.Arbitrary<unknown> {
  const valid = validArbitrary(resolve(schema, context), context, depth);
  if (context.valid || context.hostility <= 0) return valid;
  const hostileWeight = Math.max(1, Math.round(context.hostility * 10));
  return fc.oneof(
    { weight: 10 - Math.min(9, hostileWeight), arbitrary: valid },
    { weight: hostileWeight, arbitrary: hostileValue() },
  );
}

function resolve(schema: JsonSchema, context: SchemaContext): JsonSchema {
  if (!schema.$ref) return schema;
  const name = schema.$ref.replace('#/components/schemas/', '');
  return context.components[name] ?? {};
}

function validArbitrary(schema: JsonSchema, context: SchemaContext, depth: number): fc.Arbitrary<unknown> {
  if (depth > 6) return fc.constant(null);
  const next = (child: JsonSchema) => arbitraryFromJsonSchema(child, context, depth + 1);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);

  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives && alternatives.length > 0) return fc.oneof(...alternatives.map(next));
  if (schema.allOf && schema.allOf.length > 0) return next(Object.assign({}, ...schema.allOf));
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length > 1)
    return fc.oneof(...types.map((type) => validArbitrary({ ...schema, type }, context, depth)));
  switch (types[0]) {
    case 'string':
      return stringArbitrary(schema, context);
    case 'integer':
      return fc.integer({
        min: Math.max(schema.minimum ?? -1000, -(2 ** 31)),
        max: Math.min(schema.maximum ?? 100_000, 2 ** 31 - 1),
      });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(next(schema.items ?? {}), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 3, Math.max(schema.minItems ?? 0, 3)),
      });
    case 'object':
      return objectArbitrary(schema, next, context);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Characters a text may not hold (ADR 015), slipped into otherwise valid strings. */
const poisons = ['\u0000', '\u0000', '\u0000', '\ud800', '\udfff', '\u202e', '\u0007', '\u0085'] as const;

/**
 * A string the schema allows, sometimes with a poison slipped in at some position: it still has the
 * length and shape the schema checks, so it travels furthest before anything may notice it.
 */
function stringArbitrary(schema: JsonSchema, context: SchemaContext): fc.Arbitrary<string> {
  const valid = validStringArbitrary(schema, context);
  if (context.valid) return valid;
  const poisoned = fc.tuple(valid, fc.constantFrom(...poisons), fc.nat()).map(([text, poison, at]) => {
    const position = text.length === 0 ? 0 : at % (text.length + 1);
    return `${text.slice(0, position)}${poison}${text.slice(position)}`;
  });
  return fc.oneof({ weight: 2, arbitrary: valid }, { weight: 1, arbitrary: poisoned });
}

function validStringArbitrary(schema: JsonSchema, context: SchemaContext): fc.Arbitrary<string> {
  if (schema.format === 'uuid') return fc.oneof(fc.constantFrom(...context.knownIds), fc.uuid());
  if (schema.format === 'email') return fc.emailAddress();
  if (schema.format === 'date-time')
    return fc.date({ noInvalidDate: true }).map((date) => date.toISOString());
  if (schema.format === 'uri') return fc.webUrl();
  if (schema.pattern) {
    try {
      return fc.stringMatching(new RegExp(schema.pattern));
    } catch {
      // A pattern JavaScript cannot compile: fall back to plain strings.
    }
  }
  const minLength = schema.minLength ?? 0;
  return fc.string({ minLength, maxLength: Math.min(schema.maxLength ?? 40, Math.max(minLength, 40)) });
}

function objectArbitrary(
  schema: JsonSchema,
  next: (child: JsonSchema) => fc.Arbitrary<unknown>,
  context: SchemaContext,
): fc.Arbitrary<unknown> {
  const hints = context.hints ?? {};
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const shape: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties)) {
    const hint = Object.hasOwn(hints, name) ? hints[name] : undefined;
    shape[name] = hint ? (context.valid ? hint : fc.oneof(hint, next(property))) : next(property);
  }
  const declared = fc.record(shape, {
    requiredKeys: Object.keys(properties).filter((name) => required.has(name)),
  });
  if (context.valid) return declared;
  // Fields no schema declares, prototype keys among them.
  const extra = fc.dictionary(
    fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString'),
    ),
    hostileValue(),
    { maxKeys: 2 },
  );
  return fc
    .tuple(declared, fc.option(extra, { freq: 4 }))
    .map(([value, more]) => (more ? Object.assign(JSON.parse(JSON.stringify(more)), value) : value));
}

/**
 * A value the schema allows with exactly one field (of an object) replaced by a hostile value: the
 * rest passes validation, so the hostile field is judged on its own.
 */
export function arbitraryWithOneHostileField(
  schema: JsonSchema,
  context: SchemaContext,
): fc.Arbitrary<unknown> {
  return fc
    .tuple(arbitraryFromJsonSchema(schema, { ...context, valid: true }), fc.nat(), hostileValue())
    .map(([value, pick, hostile]) => {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return hostile;
      const names = Object.keys(schema.properties ?? value);
      if (names.length === 0) return value;
      return { ...value, [names[pick % names.length]!]: hostile };
    });
}
