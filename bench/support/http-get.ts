import { Agent, get } from 'node:http';

/** An answer read whole: its status and its body as text (UTF-8). */
export interface TextAnswer {
  readonly status: number;
  readonly body: string;
}

/**
 * Keep-alive connections for the load generators, one per concurrent request at most (a closed loop of
 * N clients keeps N of them open).
 */
const agent = new Agent({ keepAlive: true });

/**
 * A GET through node's own HTTP client, its body read whole as text: the lean client a load generator
 * should be (as wrk or autocannon are). `fetch` builds WHATWG streams and headers objects for every
 * request, which costs the bench process several tenths of a millisecond a request on the cores it
 * shares with the service under test (bench/README.md, "A lean HTTP client for the STAC bench").
 */
export function getText(url: string, headers: Readonly<Record<string, string>> = {}): Promise<TextAnswer> {
  return new Promise((resolve, reject) => {
    const request = get(url, { agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    request.on('error', reject);
  });
}

/** The same through `fetch`, as the benches sent every request before (to compare the two clients). */
export async function fetchText(
  url: string,
  headers: Readonly<Record<string, string>> = {},
): Promise<TextAnswer> {
  const response = await fetch(url, { headers });
  return { status: response.status, body: await response.text() };
}

/** Which client a load generator sends its GETs with. */
export type HttpClient = 'node' | 'fetch';

export function httpClientOf(text: string): HttpClient {
  if (text === 'node' || text === 'fetch') return text;
  throw new RangeError(`--http-client takes node or fetch, got "${text}"`);
}

export const getTextWith = (client: HttpClient): typeof getText => (client === 'fetch' ? fetchText : getText);
