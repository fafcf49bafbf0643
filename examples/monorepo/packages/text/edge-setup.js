// Makes the text-edge project look like an edge runtime to the code under test.
globalThis.EdgeRuntime = 'edge-runtime';
