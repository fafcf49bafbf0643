import { html, SafeHtml } from './html.js';

const style = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 2rem; color: #222; }
table { border-collapse: collapse; margin-top: 1rem; }
th, td { text-align: left; padding: 0.3rem 0.8rem; border-bottom: 1px solid #ddd; }
td.number { text-align: right; font-variant-numeric: tabular-nums; }
td.nowrap { white-space: nowrap; }
.status-failed { color: #b00020; } .status-passed { color: #1b5e20; }
.tag { background: #eee; border-radius: 3px; padding: 0 0.3rem; margin-right: 0.2rem; }
nav a { margin-right: 0.8rem; } nav a.current { font-weight: bold; }
`;

export function layout(title: string, content: SafeHtml): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${title} · testrun</title>
<style>${new SafeHtml(style)}</style>
</head>
<body>
${content}
</body>
</html>
`.markup;
}
