import type { Cell } from '../document.js';
import { escapeXml, kid, serializeXml, textOf, xmlSafe, type Element } from './xml.js';

// A filled sheet's rows written as XML text, not as nodes. A 500-row sheet built node by node spent
// most of its fill in xmldom (every appended cell updates its parent's live child list, and the
// sheet was walked and serialized whole afterwards); here each template cell is read once, each
// output cell is a string, and the sheet's XML gets its rows where a marker stands in `sheetData`.

/** A template cell read once: its tag name, attributes but its reference, type and children. */
interface CellShell {
  name: string;
  /** ` s="3"`…: every attribute but `r` and `t`. */
  attrs: string;
  t: string | null;
  /** Its `v`'s text, if it has one. */
  v: string | null;
  /** Its children as written, for a copy of the cell as it is. */
  inner: string;
  /** Its children other than a value or formula (`extLst`), kept in a filled copy. */
  others: string;
  formula: Element | undefined;
}

const shells = new WeakMap<Element, CellShell>();

/** The XML of a node's children, without the namespace declarations xmldom repeats on a subtree the root already declares. */
function childrenXml(el: Element, keep: (child: Element) => boolean): string {
  let out = '';
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && !keep(n as Element)) continue;
    out += withoutRootDeclarations(serializeXml(n), el);
  }
  return out;
}

function withoutRootDeclarations(xml: string, inside: Element): string {
  const root = inside.ownerDocument!.documentElement!;
  return xml.replace(/^<[^>]*>/, (open) =>
    open.replace(/\s(xmlns(?::[\w.-]+)?)="([^"]*)"/g, (decl, name: string, uri: string) =>
      root.getAttribute(name) === uri ? '' : decl,
    ),
  );
}

function attributesXml(el: Element, skip: Set<string>): string {
  let out = '';
  const attrs = el.attributes;
  for (let i = 0; i < attrs.length; i++) {
    const a = attrs.item(i)!;
    if (!skip.has(a.name)) out += ` ${a.name}="${escapeXml(a.value)}"`;
  }
  return out;
}

const CELL_OWN = new Set(['r', 't']);
const VALUE_PARTS = new Set(['v', 'is', 'f']);

export function shellOf(c: Element): CellShell {
  let shell = shells.get(c);
  if (!shell) {
    const v = kid(c, 'v');
    shell = {
      name: c.tagName,
      attrs: attributesXml(c, CELL_OWN),
      t: c.getAttribute('t'),
      v: v ? textOf(v) : null,
      inner: childrenXml(c, () => true),
      others: childrenXml(c, (k) => !VALUE_PARTS.has(k.localName ?? '')),
      formula: kid(c, 'f'),
    };
    shells.set(c, shell);
  }
  return shell;
}

const prefixed = (shell: CellShell, local: string) => {
  const colon = shell.name.indexOf(':');
  return colon < 0 ? local : `${shell.name.slice(0, colon + 1)}${local}`;
};

/** The cell as it is in the template, at another reference. */
export function copiedCell(c: Element, ref: string, deep: boolean): string {
  const s = shellOf(c);
  const t = s.t === null ? '' : ` t="${escapeXml(s.t)}"`;
  return deep && s.inner
    ? `<${s.name} r="${ref}"${s.attrs}${t}>${s.inner}</${s.name}>`
    : `<${s.name} r="${ref}"${s.attrs}${t}/>`;
}

/** The cell with a value: a number as a number, anything else as an inline string (never a formula, whatever it begins with). */
export function valueCell(c: Element, ref: string, value: Cell, keepChildren: boolean): string {
  const s = shellOf(c);
  const others = keepChildren ? s.others : '';
  if (value === null || value === '')
    return others ? `<${s.name} r="${ref}"${s.attrs}>${others}</${s.name}>` : `<${s.name} r="${ref}"${s.attrs}/>`;
  if (typeof value === 'number' && Number.isFinite(value))
    return `<${s.name} r="${ref}"${s.attrs}><${prefixed(s, 'v')}>${value}</${prefixed(s, 'v')}>${others}</${s.name}>`;
  const is = prefixed(s, 'is');
  const t = prefixed(s, 't');
  return `<${s.name} r="${ref}"${s.attrs} t="inlineStr"><${is}><${t} xml:space="preserve">${escapeXml(xmlSafe(String(value)))}</${t}></${is}>${others}</${s.name}>`;
}

/** The cell with its formula moved (its old result dropped: Excel recalculates on open). */
export function formulaCell(c: Element, ref: string, formula: string, sharedRef: string | null): string {
  const s = shellOf(c);
  const f = s.formula!;
  const fName = f.tagName;
  const fAttrs = attributesXml(f, new Set(['ref'])) + (sharedRef === null ? '' : ` ref="${escapeXml(sharedRef)}"`);
  const t = s.t === 'str' ? ' t="str"' : '';
  return `<${s.name} r="${ref}"${s.attrs}${t}><${fName}${fAttrs}>${escapeXml(formula)}</${fName}>${s.others}</${s.name}>`;
}

/** What a chart reading a copied cell sees: its text or number, as the DOM fill read it back. */
export function copiedValue(c: Element, sharedStrings: string[]): Cell | undefined {
  const s = shellOf(c);
  if (s.t === 's') return sharedStrings[Number(s.v)] ?? '';
  if (s.t === 'inlineStr') return textOf(kid(c, 'is'));
  if (s.v !== null && !s.formula) return Number(s.v);
  return undefined;
}

/** A row's start tag at its output number (its template's attributes, but not `spans`, which the cells changed). */
export function rowOpen(el: Element, r: number): string {
  return `<${el.tagName} r="${r}"${attributesXml(el, ROW_OWN)}>`;
}
const ROW_OWN = new Set(['r', 'spans']);
