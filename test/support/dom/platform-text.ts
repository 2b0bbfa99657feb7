// What a reader and a screen reader get of a platform's text drawn by PlatformText.vue: the text
// as written (the marks' codes left out), the marks themselves, and an element's accessible name
// as the accessible-name computation (W3C accname 1.2) reads it from `aria-labelledby`, `role=img`
// marks named by their aria-label, `aria-hidden` parts left out. For the happy-dom tests, which
// compute no accessible names.

/** The text a reader sees, without the marks' codes: the name as written (on disk, for a file). */
export function withoutCodes(el: Element): string | undefined {
  const copy = el.cloneNode(true) as Element;
  for (const code of copy.querySelectorAll('.hidden-code')) code.remove();
  return copy.textContent?.trim();
}

/** The marks of hidden characters inside `el`, by their code (`U+202E`). */
export const marksIn = (el: ParentNode): string[] =>
  [...el.querySelectorAll<HTMLElement>('[data-testid="hidden-char"]')].map((m) => m.dataset.code ?? '');

/** The name a screen reader reads for `el`'s subtree: text, aria-labels of images, hidden parts out. */
function nameFrom(node: Node): string {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent ?? '';
  if (!(node instanceof Element) || node.getAttribute('aria-hidden') === 'true') return '';
  const label = node.getAttribute('aria-label');
  if (label !== null && node.getAttribute('role') === 'img') return label;
  return [...node.childNodes].map(nameFrom).join('');
}

/** `el`'s accessible name: from the elements `aria-labelledby` points at, else its aria-label. */
export function accessibleName(el: Element): string {
  const ids = el.getAttribute('aria-labelledby')?.split(/\s+/).filter(Boolean) ?? [];
  const named = ids.map((id) => el.ownerDocument.getElementById(id)).filter((n) => n !== null);
  const text = named.length ? named.map(nameFrom).join(' ') : (el.getAttribute('aria-label') ?? '');
  return text.replace(/\s+/g, ' ').trim();
}
