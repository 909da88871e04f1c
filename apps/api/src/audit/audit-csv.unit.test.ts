import { describe, expect, it } from 'vitest';
import { csvField, csvRecord } from './audit-csv.js';

describe('csvField', () => {
  it('leaves plain text alone and quotes what RFC 4180 needs quoted', () => {
    expect(csvField('MemberAdded')).toBe('MemberAdded');
    expect(csvField('')).toBe('');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\r\nlines')).toBe('"two\r\nlines"');
    expect(csvField('{"title":"x"}')).toBe('"{""title"":""x""}"');
  });

  it('guards every cell a spreadsheet would run as a formula with a leading quote', () => {
    expect(csvField('=1+1')).toBe("'=1+1");
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('-1')).toBe("'-1");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\tx')).toBe("'\tx");
    expect(csvField('=HYPERLINK("u","t")')).toBe('"\'=HYPERLINK(""u"",""t"")"');
    expect(csvField('a=b')).toBe('a=b');
  });
});

describe('csvRecord', () => {
  it('joins fields with commas and ends with CRLF', () => {
    expect(csvRecord(['a', 'b,c', ''])).toBe('a,"b,c",\r\n');
  });
});
