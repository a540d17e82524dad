import { ExpressionError, type BinaryOp, type Node } from './ast.js';

type Token =
  | { t: 'num'; v: number; pos: number }
  | { t: 'str'; v: string; pos: number }
  | { t: 'id'; v: string; pos: number }
  | { t: 'op'; v: string; pos: number }
  | { t: 'var'; v: string; pos: number }
  | { t: 'end'; pos: number };

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const start = i;
    if (/[0-9.]/.test(c)) {
      const m = /^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(src.slice(i));
      if (!m) throw new ExpressionError('Malformed number', i, src);
      out.push({ t: 'num', v: Number(m[0]), pos: start });
      i += m[0].length;
    } else if (c === "'" || c === '"') {
      // Quotes inside a string are doubled, as in SQL and Qlik: 'O''Brien'.
      let s = '';
      i++;
      for (;;) {
        if (i >= src.length) throw new ExpressionError('Unclosed string', start, src);
        if (src[i] === c) {
          if (src[i + 1] === c) {
            s += c;
            i += 2;
            continue;
          }
          i++;
          break;
        }
        s += src[i++];
      }
      out.push({ t: c === '"' ? 'id' : 'str', v: s, pos: start } as Token);
    } else if (c === '$' && src[i + 1] === '(') {
      const end = src.indexOf(')', i);
      if (end < 0) throw new ExpressionError('Unclosed $(variable)', start, src);
      out.push({ t: 'var', v: src.slice(i + 2, end).trim(), pos: start });
      i = end + 1;
    } else if (c === '[') {
      const end = src.indexOf(']', i);
      if (end < 0) throw new ExpressionError('Unclosed [field name]', start, src);
      out.push({ t: 'id', v: src.slice(i + 1, end), pos: start });
      i = end + 1;
    } else if (/[A-Za-z_\u00C0-\uFFFF]/.test(c)) {
      const m = /^[A-Za-z_\u00C0-\uFFFF][A-Za-z0-9_\u00C0-\uFFFF]*/.exec(src.slice(i))!;
      out.push({ t: 'id', v: m[0], pos: start });
      i += m[0].length;
    } else {
      const two = src.slice(i, i + 2);
      if (['<=', '>=', '<>', '!='].includes(two)) {
        out.push({ t: 'op', v: two === '!=' ? '<>' : two, pos: start });
        i += 2;
      } else if ('+-*/()=<>,&'.includes(c)) {
        out.push({ t: 'op', v: c, pos: start });
        i++;
      } else throw new ExpressionError(`Unexpected character "${c}"`, i, src);
    }
  }
  out.push({ t: 'end', pos: src.length });
  return out;
}

const KEYWORDS = new Set(['and', 'or', 'not', 'distinct']);

/** Parses an expression: `Sum(Sales) / Count(Distinct Customer)`, `If(Sum(Sales) > 1000, 'big', 'small')`. */
export function parseExpression(src: string): Node {
  if (!src.trim()) throw new ExpressionError('The expression is empty', 0, src);
  const tokens = tokenize(src);
  let k = 0;
  const peek = () => tokens[k];
  const isOp = (v: string) => peek().t === 'op' && (peek() as { v: string }).v === v;
  const isWord = (v: string) => peek().t === 'id' && (peek() as { v: string }).v.toLowerCase() === v && !quoted(peek());
  const quoted = (tok: Token) => tok.t === 'id' && /^["[]/.test(src[tok.pos]);
  const expect = (v: string) => {
    if (!isOp(v)) throw new ExpressionError(`Expected "${v}"`, peek().pos, src);
    k++;
  };

  const binaryLevel =
    (next: () => Node, ops: string[], words = false): (() => Node) =>
    () => {
      let left = next();
      for (;;) {
        const tok = peek();
        const op = words ? ops.find((o) => isWord(o)) : ops.find((o) => isOp(o));
        if (!op) return left;
        k++;
        left = { kind: 'binary', op: op as BinaryOp, left, right: next(), pos: tok.pos };
      }
    };

  const primary = (): Node => {
    const tok = peek();
    if (tok.t === 'num') {
      k++;
      return { kind: 'number', value: tok.v, pos: tok.pos };
    }
    if (tok.t === 'str') {
      k++;
      return { kind: 'string', value: tok.v, pos: tok.pos };
    }
    if (tok.t === 'var') {
      k++;
      return { kind: 'variable', name: tok.v, pos: tok.pos };
    }
    if (isOp('(')) {
      k++;
      const inner = or();
      expect(')');
      return inner;
    }
    if (tok.t === 'id') {
      k++;
      if (!quoted(tok) && isOp('(')) {
        k++;
        let distinct = false;
        if (isWord('distinct')) {
          distinct = true;
          k++;
        }
        const args: Node[] = [];
        if (!isOp(')')) {
          args.push(or());
          while (isOp(',')) {
            k++;
            args.push(or());
          }
        }
        expect(')');
        return { kind: 'call', name: tok.v, args, distinct, pos: tok.pos };
      }
      if (!quoted(tok) && KEYWORDS.has(tok.v.toLowerCase()))
        throw new ExpressionError(`Unexpected "${tok.v}"`, tok.pos, src);
      return { kind: 'field', name: tok.v, pos: tok.pos };
    }
    throw new ExpressionError(
      tok.t === 'end' ? 'The expression ends too early' : `Unexpected "${(tok as { v: string }).v}"`,
      tok.pos,
      src,
    );
  };
  const unary = (): Node => {
    if (isOp('-')) {
      const pos = peek().pos;
      k++;
      return { kind: 'unary', op: '-', operand: unary(), pos };
    }
    return primary();
  };
  const mul = binaryLevel(unary, ['*', '/']);
  const add = binaryLevel(mul, ['+', '-', '&']);
  const cmp = (): Node => {
    const left = add();
    const op = ['<=', '>=', '<>', '=', '<', '>'].find((o) => isOp(o));
    if (!op) return left;
    const pos = peek().pos;
    k++;
    return { kind: 'binary', op: op as BinaryOp, left, right: add(), pos };
  };
  const not = (): Node => {
    if (isWord('not')) {
      const pos = peek().pos;
      k++;
      return { kind: 'unary', op: 'not', operand: not(), pos };
    }
    return cmp();
  };
  const and = binaryLevel(not, ['and'], true);
  const or = binaryLevel(and, ['or'], true);

  const tree = or();
  if (peek().t !== 'end') throw new ExpressionError(`Unexpected "${(peek() as { v: string }).v}"`, peek().pos, src);
  return tree;
}
