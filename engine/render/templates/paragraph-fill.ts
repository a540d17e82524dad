import { tagsIn, type TemplateTag } from './tags.js';
import { descendants, textOf, xmlSafe, type Element } from './xml.js';

// A paragraph's tags filled where they stand: in Word (w:p, w:t) and DrawingML (a:p, a:t) alike. A
// tag an editor split over several runs ("{{vTo" + "tal}}") is read whole; its value goes into the
// run where the tag starts, and every other run keeps its own text and format.

const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const WORD_NS = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

/** Fills each tag of a paragraph with `fill(tag)`; answers whether it held any. */
export function fillParagraph(p: Element, fill: (tag: TemplateTag | null) => string): boolean {
  const nodes = descendants(p, 't');
  const pieces = nodes.map((t) => textOf(t));
  const text = pieces.join('');
  const found = tagsIn(text);
  if (!found.length) return false;
  const starts: number[] = [];
  pieces.reduce((at, piece) => (starts.push(at), at + piece.length), 0);
  const out = pieces.map(() => '');
  // The text of [from, to) goes back to the runs it came from.
  const keep = (from: number, to: number) =>
    pieces.forEach((piece, i) => {
      const a = Math.max(from, starts[i]);
      const b = Math.min(to, starts[i] + piece.length);
      if (a < b) out[i] += text.slice(a, b);
    });
  const runAt = (at: number) => pieces.findIndex((piece, i) => at >= starts[i] && at < starts[i] + piece.length);
  let last = 0;
  for (const f of found) {
    keep(last, f.start);
    out[runAt(f.start)] += fill(f.tag);
    last = f.end;
  }
  keep(last, text.length);
  nodes.forEach((t, i) => {
    if (out[i] === pieces[i]) return;
    while (t.firstChild) t.removeChild(t.firstChild);
    t.appendChild(t.ownerDocument!.createTextNode(xmlSafe(out[i])));
    // Word drops a run's leading and trailing spaces unless told to keep them.
    if (t.namespaceURI === WORD_NS && /^\s|\s$/.test(out[i])) t.setAttributeNS(XML_NS, 'xml:space', 'preserve');
  });
  return true;
}
