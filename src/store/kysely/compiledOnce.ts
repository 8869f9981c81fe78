import { CompiledQuery, type Compilable, type Kysely, type QueryResult } from 'kysely';
import type { HelixDatabase } from '../schema.js';

/** An argument: a scalar, or a row object whose every property becomes its own parameter. */
type Argument = unknown;

/** Where a parameter of the compiled SQL comes from: an argument, a property of one, or the template itself. */
type Slot = { readonly arg: number; readonly key?: string } | { readonly constant: unknown };

interface Template {
  readonly sql: string;
  readonly slots: readonly Slot[];
  /** The property names of each object argument, in order, so a call with other properties is not misread. */
  readonly shapes: readonly (string | undefined)[];
}

const SENTINEL = '\u0000helix-compiled-once:';
const sentinel = (arg: number, key?: string): string => `${SENTINEL}${arg}${key === undefined ? '' : `.${key}`}`;

const isRow = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Uint8Array);

const shapeOf = (value: unknown): string | undefined => (isRow(value) ? Object.keys(value).join(',') : undefined);

/** Stand-ins for the arguments, each a sentinel string the compiled parameters can be traced back to. */
const sentinels = (args: readonly Argument[]): Argument[] =>
  args.map((value, arg) =>
    isRow(value) ? Object.fromEntries(Object.keys(value).map((key) => [key, sentinel(arg, key)])) : sentinel(arg),
  );

const slotOf = (parameter: unknown): Slot => {
  if (typeof parameter !== 'string' || !parameter.startsWith(SENTINEL)) return { constant: parameter };
  const [arg, key] = parameter.slice(SENTINEL.length).split(/\.(.*)/s, 2) as [string, string | undefined];
  return key === undefined ? { arg: Number(arg) } : { arg: Number(arg), key };
};

/** Compiles `build` once over sentinels and checks that every argument became a parameter as given. */
const compileTemplate = (build: (...args: Argument[]) => Compilable, args: readonly Argument[]): Template => {
  const compiled = build(...sentinels(args)).compile();
  if (compiled.sql.includes(SENTINEL)) throw new Error('compiledOnce: an argument was written into the SQL text');
  const slots = compiled.parameters.map(slotOf);
  const used = new Set(slots.map((s) => ('arg' in s ? `${s.arg}.${s.key ?? ''}` : '')));
  args.forEach((value, arg) => {
    const keys = isRow(value) ? Object.keys(value) : [undefined];
    for (const key of keys)
      if (!used.has(`${arg}.${key ?? ''}`))
        throw new Error(`compiledOnce: argument ${arg}${key === undefined ? '' : `.${key}`} is not a plain parameter`);
  });
  return { sql: compiled.sql, slots, shapes: args.map(shapeOf) };
};

/** The template fits a call whose object arguments have the same properties and no value is undefined. */
const fits = (template: Template, args: readonly Argument[]): boolean =>
  args.every((value, i) => {
    if (value === undefined) return false;
    if (!isRow(value)) return template.shapes[i] === undefined;
    return shapeOf(value) === template.shapes[i] && Object.values(value).every((v) => v !== undefined);
  });

const parametersOf = (template: Template, args: readonly Argument[]): unknown[] =>
  template.slots.map((slot) => {
    if ('constant' in slot) return slot.constant;
    const value = args[slot.arg];
    return slot.key === undefined ? value : (value as Record<string, unknown>)[slot.key];
  });

/**
 * A statement whose SQL is built and compiled once per dialect, then executed with each call's
 * values: Kysely builds and compiles a query on every call, which was a tenth of a start's CPU.
 * `build` must turn each argument (or each property of a row argument) into one bound parameter,
 * unchanged; this is checked when the template is compiled, so a transformed value (a
 * JSON.stringify inside `build`, say) fails loudly instead of being frozen into the template. A
 * call whose row has other properties, or an undefined value (which Kysely would leave out of an
 * insert), is built the ordinary way.
 */
export const compiledOnce = <A extends readonly Argument[]>(
  build: (db: Kysely<HelixDatabase>, ...args: A) => Compilable,
) => {
  const templates = new Map<string, Template>();
  return async <R = unknown>(db: Kysely<HelixDatabase>, ...args: A): Promise<QueryResult<R>> => {
    // One template per dialect: the same statement is `?` on SQLite and `$1` on PostgreSQL.
    const dialect = db.getExecutor().adapter.constructor.name;
    let template = templates.get(dialect);
    if (template === undefined) {
      template = compileTemplate((...stand) => build(db, ...(stand as unknown as A)), args);
      templates.set(dialect, template);
    }
    if (!fits(template, args)) return db.executeQuery<R>(build(db, ...args).compile() as CompiledQuery<R>);
    return db.executeQuery<R>(CompiledQuery.raw(template.sql, parametersOf(template, args)) as CompiledQuery<R>);
  };
};
