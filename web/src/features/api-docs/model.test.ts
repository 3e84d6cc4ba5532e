import type { OpenApiDocument } from '@gpucloud/control-plane/api';
import { describe, expect, it } from 'vitest';
import { authLabels, exampleValue, fieldRows, resolveSchema, typeLabel } from './model';
import sample from './testing/sample-openapi.json';

const doc = sample as unknown as OpenApiDocument;
const withSchemas = (schemas: OpenApiDocument['components']['schemas']): OpenApiDocument => ({
  ...doc,
  components: { ...doc.components, schemas },
});

describe('the viewer’s reading of schemas', () => {
  it('follows a $ref into the document, keeping the ref’s own keywords', () => {
    const d = withSchemas({ Port: { type: 'integer', minimum: 1 } });
    expect(resolveSchema(d, { $ref: '#/components/schemas/Port', default: 22 })).toEqual({
      type: 'integer',
      minimum: 1,
      default: 22,
    });
    expect(resolveSchema(d, { $ref: '#/components/schemas/Missing' })).toEqual({});
  });

  it('names types: nullable, arrays, maps and unions', () => {
    expect(typeLabel(doc, { type: ['string', 'null'] })).toBe('string | null');
    expect(typeLabel(doc, { anyOf: [{ type: 'object', properties: {} }, { type: 'null' }] })).toBe(
      'object | null',
    );
    expect(typeLabel(doc, { type: 'array', items: { type: 'integer' } })).toBe('array<integer>');
    expect(typeLabel(doc, { type: 'object', additionalProperties: { type: 'number' } })).toBe(
      'map<string, number>',
    );
    expect(
      typeLabel(doc, { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] }),
    ).toBe('string | array<string>');
    expect(typeLabel(doc, {})).toBe('any');
  });

  it('lists a schema’s fields, nested objects’ fields under theirs', () => {
    const d = withSchemas({
      Gpu: { type: 'object', properties: { uuid: { type: 'string' } }, required: ['uuid'] },
      Box: {
        type: 'object',
        properties: {
          name: { type: 'string', maxLength: 64 },
          ssh_port: { type: ['number', 'null'] },
          gpus: { type: 'array', items: { $ref: '#/components/schemas/Gpu' } },
        },
        required: ['name'],
      },
      BoxList: {
        type: 'object',
        properties: { items: { type: 'array', items: { $ref: '#/components/schemas/Box' } } },
      },
    });
    const rows = fieldRows(d, { $ref: '#/components/schemas/BoxList' });
    expect(rows.map((r) => [r.id, r.depth, r.type, r.required])).toEqual([
      ['items', 0, 'array<object>', false],
      ['items.name', 1, 'string', true],
      ['items.ssh_port', 1, 'number | null', false],
      ['items.gpus', 1, 'array<object>', false],
      ['items.gpus.uuid', 2, 'string', true],
    ]);
    expect(rows[1]?.notes).toEqual(['最多 64 个字符']);
  });

  it('says who may call: public, session, API key', () => {
    const op = doc.paths['/api/billing/balance']?.get;
    expect(op && authLabels(op)).toEqual(['会话令牌', 'API 密钥']);
    const login = doc.paths['/api/auth/login']?.post;
    expect(login && authLabels(login)).toEqual(['公开']);
  });

  it('makes an example body of the required fields', () => {
    const body = exampleValue(doc, { $ref: '#/components/schemas/PostAuthLoginBody' });
    expect(Object.keys(body as object).sort()).toEqual(['password', 'username']);
  });
});
