import { describe, expect, it } from 'vitest';
import { sqlStatements, statementLabel } from './sql-statements.js';

describe('sqlStatements', () => {
  it('splits at the semicolons outside strings, quoted names, dollar-quoted bodies and comments', () => {
    const script = [
      '-- a comment; not a statement end',
      "CREATE INDEX IF NOT EXISTS a ON t (x) WHERE s IN ('x;y', 'it''s');",
      'CREATE TABLE "odd;name" (id int); /* block; comment */',
      'DO $$',
      'BEGIN',
      '  PERFORM 1; PERFORM 2;',
      'END $$;',
      'CREATE FUNCTION f() RETURNS int LANGUAGE plpgsql AS $body$ BEGIN RETURN 1; END $body$;',
      '-- trailing comment only',
      '',
    ].join('\n');
    expect(sqlStatements(script)).toEqual([
      "-- a comment; not a statement end\nCREATE INDEX IF NOT EXISTS a ON t (x) WHERE s IN ('x;y', 'it''s')",
      'CREATE TABLE "odd;name" (id int)',
      '/* block; comment */\nDO $$\nBEGIN\n  PERFORM 1; PERFORM 2;\nEND $$',
      'CREATE FUNCTION f() RETURNS int LANGUAGE plpgsql AS $body$ BEGIN RETURN 1; END $body$',
    ]);
  });

  it('keeps a last statement without a semicolon, and refuses an unterminated body', () => {
    expect(sqlStatements('SELECT 1;\nSELECT 2')).toEqual(['SELECT 1', 'SELECT 2']);
    expect(() => sqlStatements('DO $$ BEGIN')).toThrow(/unterminated \$\$/);
  });

  it('labels a statement by what it creates', () => {
    expect(statementLabel('-- why\nCREATE UNIQUE INDEX IF NOT EXISTS k ON t (x)')).toBe('index k');
    expect(statementLabel('CREATE OR REPLACE TRIGGER t_ins AFTER INSERT ON t')).toBe('trigger t_ins');
    expect(
      statementLabel('DO $$ BEGIN IF x THEN CREATE STATISTICS s_words ON (a) FROM t; END IF; END $$'),
    ).toBe('statistics s_words…');
    expect(statementLabel('DO $$\nBEGIN\n  IF y THEN\n    INSERT INTO inventory_totals (a) SELECT 1;')).toBe(
      'fill inventory_totals',
    );
    expect(statementLabel('SELECT pg_advisory_xact_lock(hashtext($$extension:pg_trgm$$))')).toBe(
      'SELECT pg_advisory_xact_lock(hashtext($$…',
    );
  });
});
