import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '@portal/contracts';
import { renderApiDocsPage } from './api-docs-page.js';

describe('the API reference page', () => {
  it('shows every operation of the OpenAPI document, under its tag', () => {
    const document = buildOpenApiDocument() as Record<string, unknown>;
    const page = renderApiDocsPage(document);
    const paths = document.paths as Record<string, Record<string, { operationId?: string }>>;
    const operations = Object.values(paths).flatMap((item) =>
      Object.values(item).filter((operation) => typeof operation.operationId === 'string'),
    );
    expect(page.match(/<article /g)).toHaveLength(operations.length);
    for (const operation of operations) expect(page).toContain(`id="${operation.operationId ?? ''}"`);
    expect(page).toContain('<code>/api/v1/stac/search</code>');
    expect(page).toContain('<section id="tag-stac">');
    expect(page).toContain('<a href="openapi.json">');
  });

  it('escapes what the document says, renders its `code` spans and follows its shared parts', () => {
    const page = renderApiDocsPage({
      openapi: '3.1.1',
      info: { title: 'T <b>', version: '1', description: 'Use `a<b` & <script>alert(1)</script>' },
      paths: {
        '/x/{id}': {
          get: {
            operationId: 'getX',
            tags: ['things'],
            summary: '"quoted"',
            parameters: [
              { name: 'id', in: 'path', required: true, description: 'an `<id>`' },
              { $ref: '#/components/parameters/Limit' },
            ],
            responses: {
              200: { description: 'ok <done>' },
              404: { $ref: '#/components/responses/NotFound' },
            },
          },
        },
      },
      components: {
        parameters: { Limit: { name: 'limit', in: 'query', description: 'page size' } },
        responses: { NotFound: { description: 'no such `x`' } },
      },
    });
    expect(page).not.toContain('<script>');
    expect(page).toContain('<td><code>limit</code></td><td>query</td>');
    expect(page).toContain('<li><code>404</code> no such <code>x</code></li>');
    expect(page).not.toContain('<b>');
    expect(page).toContain('<code>a&lt;b</code> &amp; &lt;script&gt;');
    expect(page).toContain('<code>&lt;id&gt;</code>');
    expect(page).toContain('&quot;quoted&quot;');
    expect(page).toContain('<li><code>200</code> ok &lt;done&gt;</li>');
    expect(page).toContain('<section id="tag-things">');
  });
});
