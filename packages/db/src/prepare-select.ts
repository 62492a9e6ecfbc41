import { Column, fillPlaceholders, getTableColumns, is, SQL, Table } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { Db } from './database.js';

/** How a prepared select runs: with the values of its placeholders, to its rows as drizzle types them. */
export interface PreparedSelect<Row> {
  execute(values: Record<string, unknown>): Promise<Row[]>;
}

/** Decodes one value of a column as drizzle would (timestamps to dates, JSON parsed, …). */
type Decoder = { mapFromDriverValue(value: unknown): unknown };

/** One selected value: where it goes in the row object (a nested key or none) and how it is read. */
interface Slot {
  parent: string | null;
  key: string;
  decoder: Decoder;
}

/**
 * A select prepared under `name` (parsed and planned once per connection, like drizzle's
 * `.prepare`), whose rows are mapped by code compiled once for its fields instead of drizzle's
 * per-row mapping, which looks up every field's kind again on every row: on the busiest list of the
 * API that was a seventh of the server's CPU (docs/performance.md). Same statement, same values, same
 * row objects as `query.prepare(name).execute(values)`, which the tests compare. It takes what the hot
 * paths select: top-level columns and SQL expressions, and whole tables nested one level deep under a
 * key when the table is the query's own (drizzle turns a left-joined table's all-null object into null,
 * which this does not do, so such a selection is refused).
 */
export function prepareSelect<Query extends PgSelect>(
  db: Db,
  name: string,
  query: Query,
): PreparedSelect<Awaited<Query>[number]> {
  const slots = slotsOf(query._.selectedFields as Record<string, unknown>, query._.config.table);
  const mapRow = compileRowMapper(slots) as (row: unknown[]) => Awaited<Query>[number];
  return prepareStatement(db, name, query, mapRow);
}

/**
 * Any drizzle statement (an insert or update with `returning`, say) prepared under `name`, its rows
 * read as arrays of the driver's values in the order of the statement's columns, with dates, times
 * and intervals as text, as drizzle's session reads them, and turned into results by `mapRow`: the
 * caller decodes a column as drizzle would with the column's own `mapFromDriverValue`. What
 * `prepareSelect` runs on; for a statement on a hot path, without drizzle's per-call work (its
 * tracing span, the query's rebuilt config, the per-row mapping).
 */
export function prepareStatement<Row>(
  db: Db,
  name: string,
  query: { toSQL(): { sql: string; params: unknown[] } },
  mapRow: (row: unknown[]) => Row,
): PreparedSelect<Row> {
  const { sql: text, params } = query.toSQL();
  // The database's own pool (drizzle's `$client`): a transaction has none, and is refused.
  const pool = (db as Db & { $client?: pg.Pool }).$client;
  if (!(pool instanceof pg.Pool)) throw new Error(`${name}: the database handle has no pool`);
  return {
    async execute(values) {
      const result = await pool.query<unknown[]>({
        name,
        text,
        values: fillPlaceholders(params, values),
        rowMode: 'array',
        types: driverTypes,
      });
      return result.rows.map(mapRow);
    },
  };
}

/**
 * `prepare` run once for each database handle, its result kept with the handle: a statement for a
 * hot path is built on its first use, not on every call (nor at start-up).
 */
export function oncePerDatabase<Prepared>(prepare: (db: Db) => Prepared): (db: Db) => Prepared {
  const prepared = new WeakMap<Db, Prepared>();
  return (db) => {
    let value = prepared.get(db);
    if (value === undefined) {
      value = prepare(db);
      prepared.set(db, value);
    }
    return value;
  };
}

/**
 * The function that turns one row (its values in select order) into its object: generated once from
 * the slots as an object literal of literal keys, so every row is built with the same shape in one
 * step (V8 optimizes it as it would hand-written code), with only the decoders that change a value
 * called: most columns (text, uuid, boolean) come from the driver as they are read. The keys are
 * the selection's own names, written into the code as JSON string literals.
 */
function compileRowMapper(slots: Slot[]): (row: unknown[]) => unknown {
  const decoders: Decoder[] = [];
  const valueAt = (index: number) => {
    const decoder = slots[index]!.decoder;
    if (decoder.mapFromDriverValue === Column.prototype.mapFromDriverValue) return `row[${index}]`;
    decoders.push(decoder);
    return `(row[${index}] === null ? null : decoders[${decoders.length - 1}].mapFromDriverValue(row[${index}]))`;
  };
  // Top-level keys in drizzle's order; a nested object takes the place of its first column.
  const fields = new Map<string, string | string[]>();
  slots.forEach((slot, index) => {
    const member = `${JSON.stringify(slot.key)}: ${valueAt(index)}`;
    if (slot.parent === null) fields.set(slot.key, member);
    else {
      const members = fields.get(slot.parent);
      if (Array.isArray(members)) members.push(member);
      else fields.set(slot.parent, [member]);
    }
  });
  const body = [...fields]
    .map(([key, value]) => (Array.isArray(value) ? `${JSON.stringify(key)}: { ${value.join(', ')} }` : value))
    .join(', ');
  // Generated from the selection's names in our code (JSON string literals), never from input.
  const build = new Function('decoders', `return (row) => ({ ${body} });`) as (
    decoders: Decoder[],
  ) => (row: unknown[]) => unknown;
  return build(decoders);
}

/** The selected fields in the order drizzle writes them into the statement (its orderSelectedFields). */
function slotsOf(fields: Record<string, unknown>, ownTable: unknown): Slot[] {
  const slots: Slot[] = [];
  for (const [key, field] of Object.entries(fields)) {
    if (key === '__proto__') throw new Error('prepareSelect: "__proto__" cannot be a key of a row');
    const leaf = decoderOf(field);
    if (leaf) {
      slots.push({ parent: null, key, decoder: leaf });
      continue;
    }
    if (!is(field, Table) || field !== ownTable) {
      throw new Error(`prepareSelect: "${key}" must be a column, an SQL expression or the query's own table`);
    }
    for (const [column, value] of Object.entries(getTableColumns(field))) {
      slots.push({ parent: key, key: column, decoder: value });
    }
  }
  return slots;
}

function decoderOf(field: unknown): Decoder | null {
  if (is(field, Column)) return field;
  // An expression's decoder (its `mapWith`, or none) is internal to drizzle's types, not its objects.
  if (is(field, SQL)) return (field as unknown as { decoder: Decoder }).decoder;
  if (is(field, SQL.Aliased)) return (field.sql as unknown as { decoder: Decoder }).decoder;
  return null;
}

/**
 * The driver's parsers as drizzle's node-postgres session sets them: dates, times and intervals
 * arrive as text, for the columns' own decoders (a timestamp column makes its Date from the text).
 */
const textTypes = new Set<number>([
  pg.types.builtins.TIMESTAMPTZ,
  pg.types.builtins.TIMESTAMP,
  pg.types.builtins.DATE,
  pg.types.builtins.INTERVAL,
  1231, // numeric[]
  1115, // timestamp[]
  1185, // timestamptz[]
  1187, // interval[]
  1182, // date[]
]);
const driverTypes = {
  getTypeParser: (typeId: number, format?: 'text' | 'binary') =>
    textTypes.has(typeId) ? (value: string) => value : pg.types.getTypeParser(typeId, format),
} as pg.CustomTypesConfig;
