import { Agent, get } from 'node:http';

/**
 * An answer read whole: its status and its body as text (UTF-8), in the pieces it was decoded in as it
 * arrived (`wholeText` joins them).
 */
export interface TextAnswer {
  readonly status: number;
  readonly parts: readonly string[];
}

/** The body as one string. */
export function wholeText(answer: TextAnswer): string {
  return answer.parts.join('');
}

/** How a load generator's GETs are sent. */
export interface GetOptions {
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * The longest the socket may stay silent (milliseconds) before the request fails, so a stalled
   * service fails the run instead of hanging it (fetch's own limit was undici's 300 s).
   */
  readonly timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * Keep-alive connections for the load generators, one per concurrent request at most (a closed loop of
 * N clients keeps N of them open). Idle sockets do not keep the process alive.
 */
const agent = new Agent({ keepAlive: true });

/**
 * A GET through node's own HTTP client, its body read whole as text: the lean client a load generator
 * should be (as wrk or autocannon are). `fetch` builds WHATWG streams and header objects for every
 * request, which cost the bench process half to three quarters of a millisecond more per request on the
 * cores it shares with the service under test (bench/README.md, "A lean HTTP client for the STAC
 * bench"). Rejects when the connection fails, is cut before the body ends, or stays silent too long.
 */
export function getText(url: string, options: GetOptions = {}): Promise<TextAnswer> {
  return new Promise((resolve, reject) => {
    const request = get(url, { agent, headers: options.headers }, (response) => {
      // Decoded as it arrives (the decoder keeps a character split between reads for the next one), not
      // joined into one string: a body over about 128 KB as one Buffer or one string is an allocation of
      // its own pages, mapped and unmapped for every request, which cost this client more than all the
      // rest of a 136 KB page (bench/README.md, "The bench client's large strings").
      response.setEncoding('utf8');
      const parts: string[] = [];
      response.on('data', (part: string) => {
        if (part !== '') parts.push(part);
      });
      response.on('error', reject);
      response.on('end', () => {
        resolve({ status: response.statusCode ?? 0, parts });
      });
    });
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    request.setTimeout(timeoutMs, () => {
      request.destroy(new Error(`GET ${url}: no answer for ${timeoutMs} ms`));
    });
    request.on('error', reject);
  });
}

/** The same through `fetch`, as the benches sent every request before (to compare the two clients). */
export async function fetchText(url: string, options: GetOptions = {}): Promise<TextAnswer> {
  const response = await fetch(url, {
    headers: options.headers ?? {},
    // The whole exchange, not a silence: the closest `fetch` has to the socket timeout above.
    signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
  });
  const text = await response.text();
  return { status: response.status, parts: text === '' ? [] : [text] };
}

/** Which client a load generator sends its GETs with. */
export type HttpClient = 'node' | 'fetch';

export const getTextWith = (client: HttpClient): typeof getText => (client === 'fetch' ? fetchText : getText);
