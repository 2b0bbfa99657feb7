// The preview host counts how deep a bridge call's JSON nests before parsing it.

import { describe, expect, it } from 'vitest';
import { jsonDepth, parseJsonWithin, TooDeep } from '../../../electron/preview/request-body.ts';

describe('jsonDepth', () => {
  it('counts arrays and objects, not brackets inside strings', () => {
    expect(jsonDepth('[]')).toBe(1);
    expect(jsonDepth('[{"a":[1,{"b":{}}]}]')).toBe(5);
    expect(jsonDepth('["[[[[", {"k": "}}\\"[["}]')).toBe(2);
    expect(jsonDepth('"just text"')).toBe(0);
  });

  it('refuses deep nesting before parsing, parses the rest', () => {
    expect(() => parseJsonWithin(`${'['.repeat(65)}${']'.repeat(65)}`, 64)).toThrow(TooDeep);
    expect(parseJsonWithin('[{"theme":"[[["}]', 64)).toEqual([{ theme: '[[[' }]);
    expect(() => parseJsonWithin('[', 64)).toThrow(SyntaxError);
  });
});
