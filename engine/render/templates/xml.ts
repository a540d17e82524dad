import { DOMParser, XMLSerializer, type Document, type Element, type Node } from '@xmldom/xmldom';
import { badInput } from '../../core/errors.js';

// Small DOM helpers over xmldom for the Office parts: elements found by local name, so a part
// written with prefixes (x:c) reads the same as one without (c).

export type { Document, Element, Node };

/** Where a parser stopped: xmldom's locator, 1-based. */
interface At {
  lineNumber?: number;
  columnNumber?: number;
}
const place = (at: At | null | undefined) =>
  at?.lineNumber ? `, line ${at.lineNumber}${at.columnNumber ? `, column ${at.columnNumber}` : ''}` : '';

/** A part that is not well-formed XML (cut short, garbage): the file's fault, said with the part's name and line. */
const unreadable = (where: string, why: string, at?: At | null) => {
  const message = `The part ${where} is not readable XML${place(at)} (${why.split('\n')[0].slice(0, 160)}): the file is damaged; save it again from its application`;
  return badInput(message, [{ field: 'templateFile', message }]);
};

export function parseXml(text: string, where: string): Document {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw new Error(`${where} declares entities`);
  // Binary bytes are no XML text: xmldom would read them as a document of odd text.
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFD]/.test(text)) throw unreadable(where, 'it holds binary bytes');
  // Set by the parser's callback: a holder, so the type checker does not take it for always null.
  const first: { fatal: { why: string; at: At | null } | null } = { fatal: null };
  let doc: Document;
  try {
    doc = new DOMParser({
      onError: (level, msg, context?: { locator?: At }) => {
        const at = context?.locator ? { ...context.locator } : null;
        if (level === 'fatalError' || level === 'error') first.fatal ??= { why: String(msg), at };
      },
    }).parseFromString(text, 'text/xml');
  } catch (e) {
    // xmldom throws what it cannot read past (no root element, a document cut short).
    throw unreadable(where, (e as Error).message, first.fatal?.at ?? (e as { locator?: At }).locator);
  }
  if (first.fatal) throw unreadable(where, first.fatal.why, first.fatal.at);
  if (!doc.documentElement) throw unreadable(where, 'it has no root element');
  return doc;
}

/** Reads a package's part as XML: parsed afresh, or handed over from a reading done once already. */
export type PartReader = (path: string) => Document;

/** Each part parsed afresh from a package's bytes. */
export const partOf =
  (pkg: { parts: ReadonlyMap<string, Buffer> }): PartReader =>
  (path) =>
    parseXml(pkg.parts.get(path)!.toString('utf8'), path);

export const serializeXml = (doc: Document | Node) => new XMLSerializer().serializeToString(doc as Node);

/** The child elements of an element with this local name. */
export function kids(el: Element | Document, localName: string): Element[] {
  const out: Element[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling)
    if (n.nodeType === 1 && (n as Element).localName === localName) out.push(n as Element);
  return out;
}
export const kid = (el: Element | Document, localName: string): Element | undefined => kids(el, localName)[0];

/** Every descendant element with this local name, in document order. */
export function descendants(el: Element | Document, localName: string): Element[] {
  return Array.from(el.getElementsByTagNameNS('*', localName) as unknown as ArrayLike<Element>);
}

/** Every descendant element of one namespace with this local name (an extension's own elements). */
export function descendantsNS(el: Element | Document, namespace: string, localName: string): Element[] {
  return Array.from(el.getElementsByTagNameNS(namespace, localName) as unknown as ArrayLike<Element>);
}

/** The text of an element and its descendants. */
export const textOf = (el: Node | null | undefined): string => (el ? (el.textContent ?? '') : '');

/**
 * A copy of an element made with the document's own factory methods: xmldom's `cloneNode` walks
 * every property of every node and is the slowest step of a large fill (a sheet's cells, row by row).
 */
export function copyElement(el: Element, deep: boolean): Element {
  const doc = el.ownerDocument!;
  const copy = doc.createElementNS(el.namespaceURI, el.tagName);
  const attrs = el.attributes;
  for (let i = 0; i < attrs.length; i++) {
    const a = attrs.item(i)!;
    if (a.namespaceURI) copy.setAttributeNS(a.namespaceURI, a.name, a.value);
    else copy.setAttribute(a.name, a.value);
  }
  if (deep)
    for (let n = el.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === 1) copy.appendChild(copyElement(n as Element, true));
      else if (n.nodeType === 3) copy.appendChild(doc.createTextNode(n.nodeValue ?? ''));
      else copy.appendChild(n.cloneNode(true));
    }
  return copy;
}

/** A new element in the namespace and with the prefix of another. */
export function sibling(like: Element, localName: string): Element {
  const doc = like.ownerDocument!;
  return doc.createElementNS(like.namespaceURI, like.prefix ? `${like.prefix}:${localName}` : localName);
}

export function removeAll(nodes: Node[]) {
  for (const n of nodes) n.parentNode?.removeChild(n);
}

/** Escapes text for XML content and attributes. */
export const escapeXml = (s: string) =>
  s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

/** The nearest enclosing element of a local name, or null. */
export function ancestorNamed(el: Element, localName: string): Element | null {
  for (let p = el.parentNode as Element | null; p && p.nodeType === 1; p = p.parentNode as Element | null)
    if (p.localName === localName) return p;
  return null;
}

/** Removes characters XML 1.0 cannot hold (values from data may carry them). */
export const xmlSafe = (s: string) => s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '');
