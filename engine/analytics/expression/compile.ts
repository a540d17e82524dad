import { ExpressionError, type Node } from './ast.js';
import { parseExpression } from './parser.js';

/** A SQL fragment with its bound values, in the order their `?` appear. */
export interface Sql {
  sql: string;
  params: unknown[];
}

export interface CompileScope {
  /** Field name (case-insensitive) → SQL column; undefined when unknown. */
  column(name: string): string | undefined;
  /** Variable name → its definition, or undefined. */
  variable(name: string): string | undefined;
}

const AGGREGATES = new Set(['sum', 'count', 'avg', 'min', 'max']);
/**
 * Sums and averages compensated (Kahan-Babuska): the store adds rows on every core in no fixed
 * order, and a plain sum of decimals would change in its last digits from one run to the next (a
 * whole amount shown with ".00" in one report and bare in the next).
 */
const AGGREGATE_SQL: Record<string, string> = { sum: 'FSUM', avg: 'FAVG' };
/**
 * A date part of a value kept as ISO text (dates are stored as YYYY-MM-DD, or with a time): read as a
 * timestamp, and NULL where the value is not a date, as SQLite's strftime answered.
 */
const datePart = (part: 'year' | 'month', value: string) =>
  `CAST(${part}(TRY_CAST(CAST(${value} AS VARCHAR) AS TIMESTAMP)) AS INTEGER)`;
const SCALARS: Record<string, { args: number; sql: (a: string[]) => string }> = {
  year: { args: 1, sql: (a) => datePart('year', a[0]) },
  month: { args: 1, sql: (a) => datePart('month', a[0]) },
  round: { args: 2, sql: (a) => `ROUND(${a[0]}, ${a[1]})` },
  abs: { args: 1, sql: (a) => `ABS(${a[0]})` },
};

/**
 * Compiles an expression to DuckDB's SQL over the app's data table (every difference from SQLite's,
 * which the language was first written for, is here: 64-bit division, text joins, date parts). Only fields the app has and the functions
 * above are accepted; every literal is a bound parameter, so no user text reaches the SQL.
 * `measure` mode requires fields to sit inside an aggregation (the value of a chart cell or KPI);
 * `row` mode forbids aggregations (a dimension, a per-row condition).
 */
export function compileExpression(source: string, scope: CompileScope, mode: 'measure' | 'row' = 'measure'): Sql {
  const params: unknown[] = [];
  const expanding: string[] = [];

  const walk = (n: Node, src: string, inAggregate: boolean): string => {
    switch (n.kind) {
      case 'number':
        params.push(n.value);
        return '?';
      case 'string':
        params.push(n.value);
        return '?';
      case 'field': {
        const col = scope.column(n.name);
        if (!col) throw new ExpressionError(`Unknown field "${n.name}"`, n.pos, src);
        if (mode === 'measure' && !inAggregate)
          throw new ExpressionError(
            `Field "${n.name}" must be inside an aggregation such as Sum(${n.name})`,
            n.pos,
            src,
          );
        return col;
      }
      case 'variable': {
        const def = scope.variable(n.name);
        if (def === undefined) throw new ExpressionError(`Unknown variable "${n.name}"`, n.pos, src);
        if (expanding.includes(n.name.toLowerCase()))
          throw new ExpressionError(`Variable "${n.name}" refers to itself`, n.pos, src);
        expanding.push(n.name.toLowerCase());
        const inner = walk(parseExpression(def), def, inAggregate);
        expanding.pop();
        return `(${inner})`;
      }
      case 'unary':
        return n.op === '-' ? `(-${walk(n.operand, src, inAggregate)})` : `(NOT ${walk(n.operand, src, inAggregate)})`;
      case 'binary': {
        const l = walk(n.left, src, inAggregate);
        const r = walk(n.right, src, inAggregate);
        // Division is always of 64-bit floats (DuckDB's REAL is 32-bit; an integer division would truncate).
        if (n.op === '/') return `(CAST(${l} AS DOUBLE) / NULLIF(${r}, 0))`;
        // Joining text takes numbers as their text: a number and '' have no common type to coalesce to.
        if (n.op === '&') return `(COALESCE(CAST(${l} AS VARCHAR), '') || COALESCE(CAST(${r} AS VARCHAR), ''))`;
        const op = n.op === 'and' ? 'AND' : n.op === 'or' ? 'OR' : n.op;
        return `(${l} ${op} ${r})`;
      }
      case 'call': {
        const name = n.name.toLowerCase();
        if (AGGREGATES.has(name)) {
          if (mode === 'row') throw new ExpressionError(`${n.name}() aggregates and cannot be used here`, n.pos, src);
          if (inAggregate)
            throw new ExpressionError(`${n.name}() cannot be nested inside another aggregation`, n.pos, src);
          if (n.args.length !== 1) throw new ExpressionError(`${n.name}() takes one argument`, n.pos, src);
          if (n.distinct && name !== 'count')
            throw new ExpressionError('Distinct is only allowed in Count(Distinct …)', n.pos, src);
          return `${AGGREGATE_SQL[name] ?? name.toUpperCase()}(${n.distinct ? 'DISTINCT ' : ''}${walk(n.args[0], src, true)})`;
        }
        if (name === 'if') {
          if (n.args.length < 2 || n.args.length > 3)
            throw new ExpressionError('If() takes a condition, a value, and optionally an else value', n.pos, src);
          const [c, a, b] = n.args.map((x) => walk(x, src, inAggregate));
          return `(CASE WHEN ${c} THEN ${a} ELSE ${b ?? 'NULL'} END)`;
        }
        const scalar = SCALARS[name];
        if (!scalar) throw new ExpressionError(`Unknown function "${n.name}"`, n.pos, src);
        if (n.args.length !== scalar.args)
          throw new ExpressionError(`${n.name}() takes ${scalar.args} argument(s)`, n.pos, src);
        return scalar.sql(n.args.map((x) => walk(x, src, inAggregate)));
      }
    }
  };

  const sql = walk(parseExpression(source), source, false);
  return { sql, params };
}
