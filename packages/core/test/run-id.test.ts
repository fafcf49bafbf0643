import { describe, expect, it } from 'vitest';
import { extractRunId } from '../src/run-id.js';

describe('extractRunId', () => {
  it.each([
    [{ id: 'r1' }, 'r1'],
    [{ runId: 'r2' }, 'r2'],
    [{ run_id: 'r3' }, 'r3'],
    [{ uuid: 'r4' }, 'r4'],
    [{ id: 42 }, '42'],
    [{ data: { id: 'nested-data' } }, 'nested-data'],
    [{ run: { runId: 'nested-run' } }, 'nested-run'],
    [{ id: '  padded  ' }, 'padded'],
  ])('finds the id in %j', (body, expected) => {
    expect(extractRunId(body, undefined)).toBe(expected);
  });

  it('prefers a top-level id over a nested one', () => {
    expect(extractRunId({ id: 'top', data: { id: 'nested' } }, undefined)).toBe('top');
  });

  it('falls back to the last segment of the Location header', () => {
    expect(extractRunId(undefined, '/api/v1/runs/abc-123')).toBe('abc-123');
    expect(extractRunId({}, 'https://svc.example/api/v1/runs/xyz/?x=1')).toBe('xyz');
  });

  it('keeps a segment with a malformed escape as it came', () => {
    expect(extractRunId(undefined, '/api/v1/runs/%E0%A4%A')).toBe('%E0%A4%A');
  });

  it('uses runIdPath instead of the well-known fields when given', () => {
    const body = { id: 'wrong', data: { attributes: { id: 'right' } } };
    expect(extractRunId(body, undefined, 'data.attributes.id')).toBe('right');
    expect(extractRunId(body, undefined, 'data.missing')).toBeUndefined();
  });

  it.each([
    [undefined],
    [null],
    ['<html>ok</html>'],
    [{}],
    [{ id: '' }],
    [{ id: null }],
    [{ id: { nested: true } }],
    [{ id: Number.NaN }],
    [[{ id: 'in-array' }]],
  ])('finds nothing in %j without a Location header', (body) => {
    expect(extractRunId(body, undefined)).toBeUndefined();
  });

  it('ignores inherited properties', () => {
    const body = Object.create({ id: 'inherited' });
    expect(extractRunId(body, undefined)).toBeUndefined();
  });
});
