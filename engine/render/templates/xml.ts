import { DOMParser, XMLSerializer, type Document, type Element, type Node } from '@xmldom/xmldom';

// Small DOM helpers over xmldom for the Office parts: elements found by local name, so a part
// written with prefixes (x:c) reads the same as one without (c).

export type { Document, Element, Node };

export function parseXml(text: string, where: string): Document {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw new Error(`${where} declares entities`);
  return new DOMParser({
    onError: (level, msg) => {
      if (level === 'fatalError') throw new Error(`${where}: ${msg}`);
    },
  }).parseFromString(text, 'text/xml');
}

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

/** The text of an element and its descendants. */
export const textOf = (el: Node | null | undefined): string => (el ? (el.textContent ?? '') : '');

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

/** Removes characters XML 1.0 cannot hold (values from data may carry them). */
export const xmlSafe = (s: string) => s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '');
