/** Which of the server's routes a request matched. 'read' is the GET API; pages and unknown paths are 'other'. */
export type RouteName =
  | 'createRun'
  | 'submitResults'
  | 'completeRun'
  | 'createPlan'
  | 'uploadAttachment'
  | 'read'
  | 'other';

const API_PREFIX = '/api/';

export const paths = {
  runs: '/api/v1/runs',
  run: '/api/v1/runs/:id',
  runResults: '/api/v1/runs/:id/results',
  plans: '/api/v1/plans',
  /** An attached file's bytes: PUT to upload, GET to read (the API's key). */
  runAttachment: '/api/v1/runs/:id/attachments/:sha256',
  /** The same bytes for the pages (their key or cookie), served so they can run no script: `?type=` says how to show them. */
  runFile: '/runs/:id/files/:sha256/:name',
  /** Playwright's trace viewer, served from playwright-core (pages/trace-viewer.ts). */
  traceViewer: '/trace-viewer/*',
  runsPage: '/',
  runPage: '/runs/:id',
  testPage: '/test',
  flakyPage: '/flaky',
  quarantinePage: '/quarantine',
  quarantineChange: '/quarantine/change',
} as const;

/** A page's query: undefined values are left out of the URL. */
export type PageQuery = Record<string, string | number | undefined>;

/** Classifies a request by the route it matched (undefined when none did). */
export function classifyRoute(method: string, routeUrl: string | undefined): RouteName {
  if (method === 'POST' && routeUrl === paths.runs) return 'createRun';
  if (method === 'POST' && routeUrl === paths.runResults) return 'submitResults';
  if (method === 'PATCH' && routeUrl === paths.run) return 'completeRun';
  if (method === 'POST' && routeUrl === paths.plans) return 'createPlan';
  if (method === 'PUT' && routeUrl === paths.runAttachment) return 'uploadAttachment';
  if ((method === 'GET' || method === 'HEAD') && routeUrl?.startsWith(API_PREFIX)) return 'read';
  return 'other';
}

/** Whether a request is for the API: by the route it matched, else by its decoded path. */
export function isApiRequest(routeUrl: string | undefined, url: string): boolean {
  return (routeUrl ?? pathOf(url)).startsWith(API_PREFIX);
}

/** The percent-decoded path of a request URL, without the query string. */
export function pathOf(url: string): string {
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

export function runLocation(id: string): string {
  return `${paths.runs}/${encodeURIComponent(id)}`;
}

/** The run's page for people (paths.runPage). */
export function runPagePath(id: string, query: PageQuery = {}): string {
  return withQuery(`/runs/${encodeURIComponent(id)}`, query);
}

/** The API's address of a run's file (paths.runAttachment). */
export function attachmentPath(runId: string, sha256: string): string {
  return `${runLocation(runId)}/attachments/${sha256}`;
}

/** A run's file for the pages (paths.runFile): its name ends the path, for the browser to save it by. */
export function runFilePath(runId: string, sha256: string, name: string, contentType: string): string {
  return withQuery(`/runs/${encodeURIComponent(runId)}/files/${sha256}/${encodeURIComponent(name)}`, {
    type: contentType,
  });
}

/** The trace viewer, opening the trace at `traceUrl` (a path on this server). */
export function traceViewerPath(traceUrl: string): string {
  return withQuery('/trace-viewer/index.html', { trace: traceUrl });
}

export function runsPagePath(query: PageQuery = {}): string {
  return withQuery(paths.runsPage, query);
}

/** The page of one test: its project, suite and name, as the test page reads them. */
export function testPagePath(test: { project: string; testSuite: string; testCase: string }): string {
  return withQuery(paths.testPage, { project: test.project, suite: test.testSuite, test: test.testCase });
}

export function flakyPagePath(project?: string): string {
  return withQuery(paths.flakyPage, { project });
}

/** A project's quarantine page (paths.quarantinePage); every project's without one. */
export function quarantinePagePath(project?: string): string {
  return withQuery(paths.quarantinePage, { project });
}

/** The form that quarantines a test, or lifts its quarantine (paths.quarantineChange). */
export function quarantineChangePath(
  action: 'add' | 'lift',
  test: { project: string; testSuite: string; testCase: string },
): string {
  return withQuery(paths.quarantineChange, {
    action,
    project: test.project,
    suite: test.testSuite,
    test: test.testCase,
  });
}

function withQuery(path: string, query: PageQuery): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) params.set(name, String(value));
  }
  const search = params.toString();
  return search === '' ? path : `${path}?${search}`;
}
