/**
 * The API's reference as one HTML page, rendered from the OpenAPI document the service already serves:
 * every operation under its tag, with its parameters and answers. It is the `service-doc` a STAC client
 * (and a person) looks for; nothing is loaded from elsewhere, so it works offline and under a strict
 * Content-Security-Policy (`API_DOCS_CSP`).
 */

type Json = Readonly<Record<string, unknown>>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** Inline style only: the page loads nothing. */
export const API_DOCS_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'";

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** The descriptions' Markdown as far as they use it: paragraphs and `code` spans. */
function prose(markdown: string): string {
  return markdown
    .split(/\n\s*\n/)
    .filter((paragraph) => paragraph.trim() !== '')
    .map((paragraph) => `<p>${inline(paragraph.trim())}</p>`)
    .join('\n');
}

/** One line of the descriptions' Markdown: `code` spans. */
const inline = (markdown: string) => escapeHtml(markdown).replace(/`([^`]+)`/g, '<code>$1</code>');

const anchor = (value: string) => value.replace(/[^A-Za-z0-9_-]/g, '-');

/** A shared parameter or answer (`{"$ref": "#/components/…"}`) as the document defines it. */
function resolved(document: Json, value: unknown): Json | null {
  if (!isObject(value)) return null;
  const reference = text(value.$ref);
  if (!reference.startsWith('#/')) return value;
  let target: unknown = document;
  for (const part of reference.slice(2).split('/')) target = isObject(target) ? target[part] : undefined;
  return isObject(target) ? target : null;
}

interface Operation {
  readonly method: string;
  readonly path: string;
  readonly tag: string;
  readonly body: Json;
}

function operationsOf(document: Json): Operation[] {
  const paths = isObject(document.paths) ? document.paths : {};
  return Object.entries(paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const body = isObject(item) ? item[method] : undefined;
      if (!isObject(body)) return [];
      const tags = Array.isArray(body.tags) ? body.tags : [];
      return [{ method, path, tag: text(tags[0]) || 'other', body }];
    }),
  );
}

function parametersTable(document: Json, operation: Json): string {
  const given: unknown[] = Array.isArray(operation.parameters) ? operation.parameters : [];
  const parameters = given.map((parameter) => resolved(document, parameter)).filter(isObject);
  if (parameters.length === 0) return '';
  const rows = parameters.map(
    (parameter) =>
      `<tr><td><code>${escapeHtml(text(parameter.name))}</code></td><td>${escapeHtml(text(parameter.in))}</td>` +
      `<td>${parameter.required === true ? 'yes' : ''}</td><td>${prose(text(parameter.description))}</td></tr>`,
  );
  return `<table><thead><tr><th>parameter</th><th>in</th><th>required</th><th>meaning</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function responsesList(document: Json, operation: Json): string {
  const responses = isObject(operation.responses) ? Object.entries(operation.responses) : [];
  if (responses.length === 0) return '';
  const items = responses.map(([status, response]) => {
    const description = text(resolved(document, response)?.description);
    return `<li><code>${escapeHtml(status)}</code> ${inline(description)}</li>`;
  });
  return `<ul class="answers">${items.join('')}</ul>`;
}

function operationSection(document: Json, { method, path, body }: Operation): string {
  const id = anchor(text(body.operationId) || `${method}-${path}`);
  const request = isObject(body.requestBody)
    ? '<p class="note">Takes a JSON body (see the OpenAPI document).</p>'
    : '';
  return [
    `<article id="${escapeHtml(id)}">`,
    `<h3><span class="method">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>`,
    `<p class="summary">${escapeHtml(text(body.summary))}</p>`,
    prose(text(body.description)),
    parametersTable(document, body),
    request,
    responsesList(document, body),
    '</article>',
  ].join('\n');
}

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem;color:#1d232b}
code{background:#f1f3f5;padding:0 .2em;border-radius:3px}
h2{border-bottom:1px solid #d0d5db;margin-top:2.5rem}
article{border-left:3px solid #d0d5db;padding-left:1rem;margin:1.5rem 0}
.method{font-weight:700;color:#0b5cad}.summary{font-weight:600}
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #d0d5db;padding:.2rem .5rem;text-align:left;vertical-align:top}
td p,li p{margin:0}nav ul{columns:3}.note{color:#56606b}`;

/** The page for `document` (the service's OpenAPI document), built once when the routes are made. */
export function renderApiDocsPage(document: Json): string {
  const info = isObject(document.info) ? document.info : {};
  const tags = Array.isArray(document.tags) ? document.tags.filter(isObject) : [];
  const operations = operationsOf(document);
  const tagNames = [...new Set([...tags.map((tag) => text(tag.name)), ...operations.map((op) => op.tag)])];
  const sections = tagNames
    .map((name) => {
      const ofTag = operations.filter((operation) => operation.tag === name);
      if (ofTag.length === 0) return '';
      const tag = tags.find((candidate) => candidate.name === name);
      return [
        `<section id="tag-${escapeHtml(anchor(name))}">`,
        `<h2>${escapeHtml(name)}</h2>`,
        prose(text(tag?.description)),
        ...ofTag.map((operation) => operationSection(document, operation)),
        '</section>',
      ].join('\n');
    })
    .filter((section) => section !== '');
  const title = `${text(info.title)} ${text(info.version)}`.trim();
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} — API reference</title><style>${STYLE}</style></head>
<body>
<h1>${escapeHtml(title)} — API reference</h1>
${prose(text(info.description))}
<p class="note">${operations.length} operations. The same, machine-readable: <a href="openapi.json">openapi.json</a> (OpenAPI ${escapeHtml(text(document.openapi))}). The STAC API starts at <a href="stac">stac</a>.</p>
<nav><ul>${tagNames
    .filter((name) => operations.some((operation) => operation.tag === name))
    .map((name) => `<li><a href="#tag-${escapeHtml(anchor(name))}">${escapeHtml(name)}</a></li>`)
    .join('')}</ul></nav>
${sections.join('\n')}
</body>
</html>
`;
}
