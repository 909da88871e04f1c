import { describe, expect, it } from 'vitest';
import { batchRequestSchema, MAX_BATCH_COMMANDS } from './batch.js';
import { UNSTORABLE_TEXT_MESSAGE } from './storable-text.js';
import { validCatalogBody, validCollectionBody, validItemBody, validLink } from './test-support/fixtures.js';
import { acceptanceOf, rejectionOf } from './test-support/parse.js';

describe('batch request', () => {
  it('accepts each kind of create command', () => {
    const commands = [
      { type: 'createCatalog', body: validCatalogBody() },
      { type: 'createCollection', body: validCollectionBody() },
      { type: 'createItem', body: validItemBody() },
    ];
    expect(acceptanceOf(batchRequestSchema, { commands }).commands).toEqual(commands);
  });

  it('validates each command body with its create schema, naming the command', () => {
    const commands = [
      { type: 'createCatalog', body: validCatalogBody() },
      { type: 'createItem', body: { ...validItemBody(), title: '' } },
    ];
    expect(rejectionOf(batchRequestSchema, { commands }).message).toBe(
      'commands[1].body.title: must be at least 1 character',
    );
  });

  it('refuses unstorable text anywhere in a command, naming the command and the field', () => {
    const commands = [
      { type: 'createCatalog', body: validCatalogBody() },
      { type: 'createCollection', body: { ...validCollectionBody(), keywords: ['ok', 'x\u0000'] } },
      {
        type: 'createItem',
        body: { ...validItemBody(), links: [{ ...validLink(), linkJson: { a: ['\ud800'] } }] },
      },
    ];
    expect(rejectionOf(batchRequestSchema, { commands }).message).toBe(
      `commands[1].body.keywords[1]: ${UNSTORABLE_TEXT_MESSAGE}; commands[2].body.links[0].linkJson.a[0]: ${UNSTORABLE_TEXT_MESSAGE}`,
    );
  });

  it('rejects an unknown command type', () => {
    expect(rejectionOf(batchRequestSchema, { commands: [{ type: 'dropTable', body: {} }] }).message).toBe(
      'commands[0].type: must be one of createCatalog, createCollection, createItem',
    );
  });

  it('rejects a command that is not an object', () => {
    expect(rejectionOf(batchRequestSchema, { commands: ['createCatalog'] }).message).toBe(
      'commands[0]: must be a JSON object',
    );
  });

  it(`needs 1 to ${MAX_BATCH_COMMANDS} commands`, () => {
    const command = () => ({ type: 'createCatalog', body: validCatalogBody() });
    expect(rejectionOf(batchRequestSchema, { commands: [] }).message).toBe(
      'commands: must have at least 1 command',
    );
    acceptanceOf(batchRequestSchema, { commands: Array.from({ length: MAX_BATCH_COMMANDS }, command) });
    expect(
      rejectionOf(batchRequestSchema, { commands: Array.from({ length: MAX_BATCH_COMMANDS + 1 }, command) })
        .message,
    ).toBe(`commands: must have at most ${MAX_BATCH_COMMANDS} commands`);
  });
});
