import { describe, expect, it } from 'vitest';
import {
  announcedAttachmentLimits,
  announcedExtensions,
  announcedResultLimits,
  extractRunId,
} from '../../src/delivery/create-run.js';

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
    expect(extractRunId(JSON.stringify(body), undefined)).toBe(expected);
  });

  it('prefers a top-level id over a nested one', () => {
    expect(extractRunId('{"id":"top","data":{"id":"nested"}}', undefined)).toBe('top');
  });

  it('falls back to the last segment of the Location header', () => {
    expect(extractRunId('', '/api/v1/runs/abc-123')).toBe('abc-123');
    expect(extractRunId('{}', 'https://svc.example/api/v1/runs/xyz/?x=1')).toBe('xyz');
    expect(extractRunId('<html></html>', '/r/abc-9')).toBe('abc-9');
  });

  it('prefers a Location header that names the run over the body', () => {
    expect(extractRunId('{"id":"body-id"}', '/api/v1/runs/location-id')).toBe('location-id');
    // A Location that points elsewhere does not name the run: the body does.
    expect(extractRunId('{"id":"body-id"}', '/api/v1/runs/location-id/results')).toBe('body-id');
  });

  it.each([
    ['{"id":9007199254740993}', '9007199254740993'],
    ['{"data":{"id":12345678901234567890123}}', '12345678901234567890123'],
    ['{"note":"id 1.5 \\"quoted\\" 9","id":-42}', '-42'],
    ['{"id":1.0e3}', '1.0e3'],
  ])('keeps a numeric id as the service wrote it: %s', (body, expected) => {
    expect(extractRunId(body, undefined)).toBe(expected);
  });

  it('reads an id beyond 2^53 from the body at runIdPath exactly', () => {
    expect(extractRunId('{"run":{"key":90071992547409931}}', undefined, 'run.key')).toBe('90071992547409931');
  });

  it('keeps a segment with a malformed escape as it came', () => {
    expect(extractRunId('', '/api/v1/runs/%E0%A4%A')).toBe('%E0%A4%A');
  });

  it('uses runIdPath instead of the well-known fields when given', () => {
    const body = JSON.stringify({ id: 'wrong', data: { attributes: { id: 'right' } } });
    expect(extractRunId(body, undefined, 'data.attributes.id')).toBe('right');
    expect(extractRunId(body, undefined, 'data.missing')).toBeUndefined();
  });

  it.each([
    [''],
    ['null'],
    ['<html>ok</html>'],
    ['{}'],
    ['{"id":""}'],
    ['{"id":null}'],
    ['{"id":{"nested":true}}'],
    ['{"id":true}'],
    ['[{"id":"in-array"}]'],
    ['{"id":1.2.3}'],
    ['{"__proto__":{"id":"inherited"}}'],
  ])('finds nothing in %s without a Location header', (body) => {
    expect(extractRunId(body, undefined)).toBeUndefined();
  });
});

describe('announcedExtensions', () => {
  it('reads an extensions array in the answer, at the top or beside the id under data or run', () => {
    for (const body of [
      { id: 'r', extensions: ['failure-details', 'complete-run'] },
      { data: { id: 'r', extensions: ['other', 'complete-run', 'failure-details'] } },
      { run: { id: 'r', extensions: ['failure-details', 'complete-run'] } },
    ]) {
      expect(announcedExtensions(JSON.stringify(body), undefined)).toEqual([
        'failure-details',
        'complete-run',
      ]);
    }
  });

  it('reads a Testrun-Extensions header, a comma-separated list in any case', () => {
    expect(announcedExtensions('', 'other, Failure-Details')).toEqual(['failure-details']);
    expect(announcedExtensions('{"extensions":["complete-run"]}', 'failure-details')).toEqual([
      'failure-details',
      'complete-run',
    ]);
  });

  it('is empty for a service that says nothing, or something else', () => {
    expect(announcedExtensions('{"id":"r"}', undefined)).toEqual([]);
    expect(announcedExtensions('{"extensions":"failure-details"}', undefined)).toEqual([]);
    expect(announcedExtensions('{"extensions":[1,null,"future-thing"]}', undefined)).toEqual([]);
    expect(announcedExtensions('not json', 'failure-detailsx')).toEqual([]);
  });
});

describe('announcedAttachmentLimits', () => {
  it('reads the limits beside the extensions, at the top or under data or run, or from a header', () => {
    const limits = { maxFileBytes: 100, maxRunBytes: 1000 };
    for (const body of [
      { id: 'r', extensions: ['attachments'], attachments: limits },
      { data: { id: 'r', attachments: limits } },
      { run: { id: 'r', attachments: limits } },
    ]) {
      expect(announcedAttachmentLimits(JSON.stringify(body), undefined)).toEqual(limits);
    }
    expect(announcedAttachmentLimits('', 'max-file-bytes=100, MAX-RUN-BYTES = 1000')).toEqual(limits);
    expect(announcedAttachmentLimits('{"attachments":{"maxRunBytes":1000}}', undefined)).toEqual({
      maxFileBytes: undefined,
      maxRunBytes: 1000,
    });
  });

  it('reads nothing where the answer says nothing, or nothing that is a number of bytes', () => {
    expect(announcedAttachmentLimits('{"id":"r"}', undefined)).toBeUndefined();
    expect(
      announcedAttachmentLimits('{"attachments":{"maxFileBytes":"a hundred","maxRunBytes":-1}}', undefined),
    ).toBeUndefined();
    expect(
      announcedAttachmentLimits('{"attachments":{"maxFileBytes":1.5}}', 'max-file-bytes=lots'),
    ).toBeUndefined();
  });
});

describe('announcedResultLimits', () => {
  it('reads what one results request may hold beside the extensions, at the top or under data or run, or from a header', () => {
    const limits = { maxResults: 1000, maxBytes: 5_242_880 };
    for (const body of [
      { id: 'r', extensions: ['failure-details'], results: limits },
      { data: { id: 'r', results: limits } },
      { run: { id: 'r', results: limits } },
    ]) {
      expect(announcedResultLimits(JSON.stringify(body), undefined)).toEqual(limits);
    }
    expect(announcedResultLimits('', 'max-results=1000, MAX-BYTES = 5242880')).toEqual(limits);
    expect(announcedResultLimits('{"results":{"maxResults":500}}', undefined)).toEqual({
      maxResults: 500,
      maxBytes: undefined,
    });
  });

  it('reads nothing where the answer says nothing, or nothing that is a positive whole number', () => {
    expect(announcedResultLimits('{"id":"r"}', undefined)).toBeUndefined();
    expect(announcedResultLimits('{"results":[{"testCase":"a"}]}', undefined)).toBeUndefined();
    expect(
      announcedResultLimits('{"results":{"maxResults":0,"maxBytes":2.5}}', 'max-results=many'),
    ).toBeUndefined();
  });
});
