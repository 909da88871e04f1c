import {
  checkOutboundUrl,
  hostOf,
  resolveOutbound,
  type Config,
  type OutboundPolicy,
} from '@portal/platform';
import { HttpProblem } from '../http/problem.js';

export function outboundPolicyOf(
  config: Pick<Config, 'WEBHOOK_ALLOW_HTTP_LOOPBACK' | 'WEBHOOK_ALLOW_PRIVATE_NETWORKS'>,
): OutboundPolicy {
  return {
    allowHttpLoopback: config.WEBHOOK_ALLOW_HTTP_LOOPBACK,
    allowPrivateNetworks: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
  };
}

function invalidUrl(problem: string): HttpProblem {
  return new HttpProblem(400, `invalid webhook: url: ${problem}`, 'VALIDATION_FAILED', [
    { path: 'url', message: problem },
  ]);
}

/**
 * The endpoint's URL, refused with a 400 unless the service may call it: https (http only to loopback
 * when allowed), no credentials, and every address its host resolves to public (docs/webhooks.md). The
 * worker checks the addresses again on every connection; this check tells the admin now.
 */
export async function checkTargetUrl(text: string, policy: OutboundPolicy): Promise<URL> {
  const checked = checkOutboundUrl(text, policy);
  if ('problem' in checked) throw invalidUrl(checked.problem);
  const { url } = checked;
  try {
    await resolveOutbound(hostOf(url), url.protocol === 'http:' ? 'http:' : 'https:', policy);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA') {
      throw invalidUrl(`${hostOf(url)} does not resolve to an address`);
    }
    throw invalidUrl(error instanceof Error ? error.message : String(error));
  }
  return url;
}
