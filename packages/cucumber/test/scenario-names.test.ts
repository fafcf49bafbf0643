import { describe, expect, it } from 'vitest';
import type { GherkinDocument } from '../src/messages.js';
import { ScenarioNames } from '../src/scenario-names.js';

/** A feature file of scenarios named `names`, each with the id `s<i>`. */
function document(uri: string, names: string[]): GherkinDocument {
  return {
    uri,
    feature: { name: 'debug', children: names.map((name, i) => ({ scenario: { id: `s${i}`, name } })) },
  };
}

describe('ScenarioNames', () => {
  it('numbers the repeats of a name in the order of the file, per file', () => {
    const names = new ScenarioNames();
    names.addDocument(document('a.feature', ['same', 'same', 'other', 'same']));
    names.addDocument(document('b.feature', ['same']));
    for (const [i, uri] of ['a.feature', 'a.feature', 'a.feature', 'a.feature'].entries()) {
      names.addPickle({ id: `a${i}`, uri, name: i === 2 ? 'other' : 'same', astNodeIds: [`s${i}`] });
    }
    names.addPickle({ id: 'b0', uri: 'b.feature', name: 'same', astNodeIds: ['s0'] });
    expect(['a0', 'a1', 'a2', 'a3', 'b0'].map((id) => names.of(id)?.titles.join(' > '))).toEqual([
      'debug > same',
      'debug > same (2)',
      'debug > other',
      'debug > same (3)',
      'debug > same',
    ]);
  });

  it('repeats a scenario without a name as `(unnamed) (2)`, after the `(unnamed)` core makes of the first', () => {
    const names = new ScenarioNames();
    names.addDocument(document('debug.feature', ['', '']));
    names.addPickle({ id: 'p0', uri: 'debug.feature', name: '', astNodeIds: ['s0'] });
    names.addPickle({ id: 'p1', uri: 'debug.feature', name: '', astNodeIds: ['s1'] });
    expect(names.of('p0')?.titles).toEqual(['debug', '']);
    expect(names.of('p1')?.titles).toEqual(['debug', '(unnamed) (2)']);
  });

  it('names nothing it was not told of', () => {
    expect(new ScenarioNames().of('unknown')).toBeUndefined();
  });
});
