// Test utilities shared by every package's tests: one place to start a server and to
// spawn a real Vitest or Jest run on a fixture project.
export * from './server.js';
export * from './spawn.js';
