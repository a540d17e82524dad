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
const SCALARS: Record<string, { args: number; sql: (a: string[]) => string }> = {
  year: { args: 1, sql: (a) => `CAST(strftime('%Y', ${a[0]}) AS INTEGER)` },
  month: { args: 1, sql: (a) => `CAST(strftime('%m', ${a[0]}) AS INTEGER)` },
  round: { args: 2, sql: (a) => `ROUND(${a[0]}, ${a[1]})` },
  abs: { args: 1, sql: (a) => `ABS(${a[0]})` },
};

/**
 * Compiles an expression to SQL over the app's data table. Only fields the app has and the functions
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
        if (n.op === '/') return `(CAST(${l} AS REAL) / NULLIF(${r}, 0))`;
        if (n.op === '&') return `(COALESCE(${l}, '') || COALESCE(${r}, ''))`;
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
          return `${name.toUpperCase()}(${n.distinct ? 'DISTINCT ' : ''}${walk(n.args[0], src, true)})`;
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
