/** The expression language's syntax tree; `pos` is the 0-based offset in the source, for errors. */
export type Node =
  | { kind: 'number'; value: number; pos: number }
  | { kind: 'string'; value: string; pos: number }
  | { kind: 'field'; name: string; pos: number }
  /** `$(vName)`: a variable of the app, whose definition is itself an expression. */
  | { kind: 'variable'; name: string; pos: number }
  | { kind: 'unary'; op: '-' | 'not'; operand: Node; pos: number }
  | { kind: 'binary'; op: BinaryOp; left: Node; right: Node; pos: number }
  | { kind: 'call'; name: string; args: Node[]; distinct: boolean; pos: number };

export type BinaryOp = '+' | '-' | '*' | '/' | '=' | '<>' | '<' | '<=' | '>' | '>=' | 'and' | 'or' | '&';

export class ExpressionError extends Error {
  constructor(
    message: string,
    readonly position: number,
    readonly source: string,
  ) {
    super(
      `${message} (at position ${position + 1}: "${source.slice(Math.max(0, position - 10), position)}⟨here⟩${source.slice(position, position + 10)}")`,
    );
    this.name = 'ExpressionError';
  }
}
