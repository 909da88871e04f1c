import type { RequestHandler } from 'express';
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  tracerOf,
} from '@portal/platform';
import { methodLabel, routeLabel, UNMATCHED_ROUTE } from './request-metrics.js';

const tracer = tracerOf('@portal/api');

/**
 * One server span per request, active for everything the request does, so the command, the event-store
 * append, the projection wait and every log line of the request are part of it. Named after the route
 * template that answered (`POST /api/v1/portal/catalogs/create`), never the URL, and with attributes of a
 * handful of values: method, route, status code. A caller's `traceparent` (W3C, or what
 * `OTEL_PROPAGATORS` names) makes the request part of the caller's trace.
 *
 * With tracing off the span is the API's no-op, without ids: the request then goes on untouched, with no
 * listener and no context of its own.
 */
export function requestTracing(): RequestHandler {
  return (req, res, next) => {
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const method = methodLabel(req.method);
    const span = tracer.startSpan(
      method,
      // `_OTHER` is what the HTTP conventions name a method outside the known ones.
      {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': method === 'OTHER' ? '_OTHER' : method },
      },
      parent,
    );
    if (!trace.isSpanContextValid(span.spanContext())) {
      next();
      return;
    }
    // `close` comes once the answer is sent, or once the client left before: the span ends either way.
    res.once('close', () => {
      const route = routeLabel(res);
      if (route !== UNMATCHED_ROUTE) {
        span.updateName(`${method} ${route}`);
        span.setAttribute('http.route', route);
      }
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) {
        // 4xx answers are the client's to fix: the server span's status stays unset for them.
        span.setStatus({ code: SpanStatusCode.ERROR });
        span.setAttribute('error.type', String(res.statusCode));
      }
      if (!res.writableFinished) span.setAttribute('portal.http.client_left', true);
      span.end();
    });
    context.with(trace.setSpan(parent, span), next);
  };
}
