// Value types both interfaces use: texts, numbers, timestamps, ids and open enumerations. Lenient
// ones (`soft`) default what is missing or mistyped; see parse.ts.

import { z } from 'zod';
import { soft } from './parse.ts';

/**
 * A text; '' when missing. Also every enumeration the documents show only in part ("values
 * seen …"): any text is kept, so a value the app does not know yet is carried, not refused; each
 * resource exports the values its document names beside its schema (`ENGAGEMENT_STATUSES` …).
 */
export const text = soft(z.string(), '');
/** A text or null; null when missing. */
export const maybeText = soft(z.string().nullable(), null);
/** A number; 0 when missing. */
export const count = soft(z.number(), 0);
/** An integer or null; null when missing. */
export const maybeInteger = soft(z.int().nullable(), null);
/** A boolean; false when missing. */
export const flag = soft(z.boolean(), false);
/** `YYYY-MM-DD HH:MM:SS` in both documents; kept as text whatever its form, '' when missing. */
export const timestamp = text;
/** A timestamp, or null (not happened yet). */
export const maybeTimestamp = maybeText;
/** Texts; [] when missing. */
export const texts = soft(z.array(z.string()), () => []);

/** An id the document gives as an integer: held strictly, records are stored by it. */
export const integerId = z.int();
/** An id the document gives as text (a uuid, `uuid|uuid`): held strictly, not empty. */
export const textId = z.string().min(1);
/** An id the document gives as text or integer (a form's key). */
export const anyId = z.union([textId, integerId]);
