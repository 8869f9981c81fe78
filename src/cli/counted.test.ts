import { describe, expect, it } from 'vitest';
import { counted } from './counted.js';

describe('counted', () => {
  it('names one thing in the singular and every other count in the plural', () => {
    expect(counted(1, 'passage')).toBe('1 passage');
    expect(counted(0, 'passage')).toBe('0 passages');
    expect(counted(2, 'passage')).toBe('2 passages');
    expect(counted(3, 'entry', 'entries')).toBe('3 entries');
  });
});
