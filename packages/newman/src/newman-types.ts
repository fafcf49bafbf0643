// The parts of Newman's reporter API this reporter reads (newman/lib/run/index.js and
// postman-collection's Item): a reporter is constructed with the run's event emitter, its
// own options and the run's options; every event's listener gets (err, args).

export type NewmanListener = (err: unknown, args: unknown) => void;

export interface NewmanEmitter {
  on(event: string, listener: NewmanListener): unknown;
}

/** Where an event is in the run: its item's execution (`ref`), the iteration (from 0) and how many there are (`cycles`). */
export interface NewmanCursor {
  ref?: string;
  iteration?: number;
  cycles?: number;
}

/** An item of the collection (a request), a folder, or the collection itself (postman-collection's PropertyBase). */
export interface NewmanProperty {
  name?: unknown;
  parent?: () => NewmanProperty | undefined;
}

/** The run's options as Newman hands them to a reporter, after loading them. */
export interface NewmanRunOptions {
  collection?: { name?: unknown };
  newmanVersion?: unknown;
  /** `--bail`: Newman stops at the first failure (true, or the kinds it bails on). */
  bail?: unknown;
}

/** A postman-collection Request as the `request` event carries it. */
export interface NewmanRequest {
  method?: unknown;
  url?: { toString?: () => string } | string;
}
