import { createCatalogBodySchema } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client.js';
import { errorsOf, validate } from './form-errors.js';

describe('form errors', () => {
  it("puts the contract's messages at their fields, links included", () => {
    const checked = validate(createCatalogBodySchema, {
      title: '',
      description: 'ok',
      links: [
        { title: '', href: 'https://example.org', rel: 'r', type: 't', targetType: 'web', linkJson: {} },
      ],
    });
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.errors.fields).toEqual({
      title: 'must be at least 1 character',
      'links[0].title': 'must be at least 1 character',
    });
    expect(checked.errors.form).toBeNull();
  });

  it('passes a valid body through as the contract parses it', () => {
    const checked = validate(createCatalogBodySchema, { title: 'Land cover', description: 'x', links: [] });
    expect(checked).toEqual({ ok: true, data: { title: 'Land cover', description: 'x', links: [] } });
  });

  it("shows an API refusal's details at their fields, or its message for the whole form", () => {
    const invalid = new ApiError(400, 'title: must be at most 140 characters', 'INVALID_BODY', [
      { path: 'title', message: 'must be at most 140 characters' },
    ]);
    expect(errorsOf(invalid)).toEqual({ fields: { title: 'must be at most 140 characters' }, form: null });
    const stale = new ApiError(
      412,
      'the object is at revision 2, not 1; read it again',
      'STALE_REVISION',
      [],
    );
    expect(errorsOf(stale)).toEqual({
      fields: {},
      form: 'the object is at revision 2, not 1; read it again',
    });
    expect(errorsOf(new Error('offline'))).toEqual({ fields: {}, form: 'offline' });
  });
});
