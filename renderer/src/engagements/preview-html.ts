// The platform's engagement HTML, cut down to what an advisor reads and nothing that connects.
// The preview frame runs no script, but a script-free page still reaches out on its own: resource
// hints (`<link rel=preconnect|dns-prefetch|prefetch|preload>`), `<meta http-equiv=refresh>`,
// `<base href>`, CSS `@import` and `url()`, `srcset`, media, embedded frames and objects, SVG's
// `xlink:href`, a form's action, a table's `background`. Issue 24 found the hints leaving past the
// CSP, telling whoever wrote the markup when and from where the advisor opened it.
//
// DOMPurify with an allow-list, not a deny-list: only the elements and attributes of a document
// to read (headings, text, lists, tables, plain links, form fields showing answers) are kept, so
// an element nobody listed is dropped with its markup (its text stays, DOMPurify's KEEP_CONTENT).
// Then, for what is kept:
// - a link keeps its `href` only when it is absolute `https:`/`http:`, `mailto:`, `tel:` or an
//   anchor in the page (`#…`); it is followed only when clicked, in a new window, through the
//   host's https check (the frame's `<base target="_blank">`);
// - an image keeps its `src` only as an inline `data:image/…` address; one from anywhere else
//   (the platform's own included: the frame carries no token, and the CSP allows no outside image)
//   is replaced by its alt text;
// - a style (a `<style>` sheet or a `style` attribute) is kept only when it can fetch nothing: no
//   `url(`, `@import`, `image-set(`, `image(`, `src(`, `cross-fade(`, `element(` and no CSS escape
//   (a backslash could spell any of them); otherwise it is dropped whole and the page shows
//   unstyled there.

import DOMPurify, { type Config, type DOMPurify as Purifier } from 'dompurify';

const TEXT = ['p', 'div', 'span', 'br', 'hr', 'wbr', 'pre', 'blockquote', 'address'];
const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hgroup'];
const SECTIONS = ['section', 'article', 'header', 'footer', 'main', 'aside', 'nav', 'figure', 'figcaption'];
const PHRASES = ['a', 'strong', 'b', 'em', 'i', 'u', 's', 'small', 'sub', 'sup', 'mark', 'abbr', 'q'];
const CODE = ['code', 'kbd', 'samp', 'var', 'dfn', 'time', 'del', 'ins', 'bdi', 'bdo'];
const LISTS = ['ul', 'ol', 'li', 'dl', 'dt', 'dd', 'details', 'summary'];
const TABLES = ['table', 'caption', 'colgroup', 'col', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td'];
/** The fields of a questionnaire showing its answers; never `form` (it could post) nor `button`. */
const FIELDS = ['fieldset', 'legend', 'label', 'input', 'textarea', 'select', 'option', 'optgroup'];
const FIELD_VALUES = ['output', 'progress', 'meter'];
/** Style sheets (the head's too: FORCE_BODY parses the whole page into the body) and images. */
const SHEETS_AND_IMAGES = ['style', 'img'];

const PREVIEW_TAGS = [
  ...SHEETS_AND_IMAGES,
  ...TEXT,
  ...HEADINGS,
  ...SECTIONS,
  ...PHRASES,
  ...CODE,
  ...LISTS,
  ...TABLES,
  ...FIELDS,
  ...FIELD_VALUES,
];

/** No attribute that names an address but `href` (links) and `src` (images, inline only). */
const PREVIEW_ATTRIBUTES = [
  ...['href', 'src', 'alt', 'title', 'id', 'class', 'style', 'lang', 'dir', 'role'],
  ...['width', 'height', 'align', 'valign', 'colspan', 'rowspan', 'scope', 'headers', 'span', 'abbr'],
  ...['start', 'reversed', 'datetime', 'open'],
  ...['type', 'value', 'checked', 'selected', 'disabled', 'readonly', 'multiple', 'label', 'for'],
  ...['placeholder', 'rows', 'cols', 'min', 'max', 'low', 'high', 'optimum'],
];

const CONFIG: Config = {
  FORCE_BODY: true,
  ALLOWED_TAGS: PREVIEW_TAGS,
  ALLOWED_ATTR: PREVIEW_ATTRIBUTES,
  ALLOW_UNKNOWN_PROTOCOLS: false,
};

/** What CSS can fetch with, or hide it behind (an escape); matched on the raw text, any case. */
const CSS_FETCHES = /\\|url\(|@import|image-set\(|image\(|src\(|cross-fade\(|element\(/i;

/** A link the advisor may follow (by clicking, in a new window): absolute web, mail, phone, or in-page. */
const FOLLOWABLE = /^(?:https?:\/\/|mailto:|tel:|#)/i;

/** An image carried inside the page, which fetches nothing. */
const INLINE_IMAGE = /^data:image\//i;

function cssFetches(css: string): boolean {
  return CSS_FETCHES.test(css);
}

let purifier: Purifier | null = null;

/** One DOMPurify of its own, so that these hooks touch no other use of the library. */
function previewPurifier(): Purifier {
  if (purifier) return purifier;
  const p = DOMPurify(window);
  p.addHook('uponSanitizeElement', (node, data) => {
    if (data.tagName === 'style' && cssFetches(node.textContent ?? '')) node.parentNode?.removeChild(node);
  });
  p.addHook('uponSanitizeAttribute', (node, data) => {
    const value = data.attrValue.trim();
    if (data.attrName === 'style') data.keepAttr = !cssFetches(value);
    else if (data.attrName === 'href') data.keepAttr = node.nodeName === 'A' && FOLLOWABLE.test(value);
    else if (data.attrName === 'src') data.keepAttr = node.nodeName === 'IMG' && INLINE_IMAGE.test(value);
  });
  p.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName !== 'IMG' || node.hasAttribute('src')) return;
    const alt = node.getAttribute('alt') ?? '';
    node.replaceWith(node.ownerDocument.createTextNode(alt));
  });
  purifier = p;
  return p;
}

/** The platform's page as the markup of its body (its head's style sheets moved in): the same text, no address reached. */
export function sanitizePreviewHtml(html: string): string {
  return previewPurifier().sanitize(html, CONFIG);
}
