// The modules that define Node's HTTP client classes
// (docs/design/what-tests-do-to-the-process.md#http-doubles). Node documents them only as
// deprecated aliases, so @types/node leaves them out; they export the very classes `node:http`
// does.
declare module 'node:_http_agent' {
  export { Agent, type AgentOptions } from 'node:http';
}

declare module 'node:_http_client' {
  export { ClientRequest } from 'node:http';
}
