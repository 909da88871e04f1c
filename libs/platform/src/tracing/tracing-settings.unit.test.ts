import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config.js';
import { tracingSettingsOf } from './tracing-settings.js';

describe('whether tracing is on', () => {
  it('is off when no exporter is configured, although the specification defaults to otlp', () => {
    expect(tracingSettingsOf({})).toEqual({ enabled: false, exporters: [] });
    expect(tracingSettingsOf({ OTEL_SERVICE_NAME: 'portal-api', OTEL_TRACES_SAMPLER: 'always_on' })).toEqual({
      enabled: false,
      exporters: [],
    });
  });

  it('is on for a named exporter, or for an OTLP endpoint alone', () => {
    expect(tracingSettingsOf({ OTEL_TRACES_EXPORTER: 'otlp' })).toEqual({
      enabled: true,
      exporters: ['otlp'],
    });
    expect(tracingSettingsOf({ OTEL_TRACES_EXPORTER: ' console , otlp,console' })).toEqual({
      enabled: true,
      exporters: ['console', 'otlp'],
    });
    expect(tracingSettingsOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toEqual({
      enabled: true,
      exporters: ['otlp'],
    });
    expect(
      tracingSettingsOf({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }),
    ).toEqual({
      enabled: true,
      exporters: ['otlp'],
    });
  });

  it('is off for `none` and whenever OTEL_SDK_DISABLED is true', () => {
    expect(
      tracingSettingsOf({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })
        .enabled,
    ).toBe(false);
    expect(tracingSettingsOf({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_SDK_DISABLED: 'TRUE' }).enabled).toBe(
      false,
    );
    expect(tracingSettingsOf({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_SDK_DISABLED: 'false' }).enabled).toBe(
      true,
    );
  });

  it('stops start-up on an exporter or protocol the SDK does not know, naming the variable', () => {
    expect(() => tracingSettingsOf({ OTEL_TRACES_EXPORTER: 'jaegr' })).toThrow(ConfigError);
    expect(() => tracingSettingsOf({ OTEL_TRACES_EXPORTER: 'jaegr' })).toThrow(/OTEL_TRACES_EXPORTER.*jaegr/);
    expect(() => tracingSettingsOf({ OTEL_TRACES_EXPORTER: 'otlp,none' })).toThrow(/none.*alone/);
    expect(() =>
      tracingSettingsOf({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'http' }),
    ).toThrow(/OTEL_EXPORTER_OTLP_PROTOCOL/);
  });
});
