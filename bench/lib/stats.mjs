export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function min(values) {
  return Math.min(...values);
}

export function max(values) {
  return Math.max(...values);
}

/** Median absolute deviation, as a fraction of the median: the noise of a set of runs. */
export function relativeMad(values) {
  const m = median(values);
  return median(values.map((v) => Math.abs(v - m))) / m;
}

export function ms(value) {
  return value >= 100 ? `${Math.round(value)} ms` : `${value.toFixed(1)} ms`;
}

export function seconds(valueMs) {
  return `${(valueMs / 1000).toFixed(2)} s`;
}

export function mb(bytes) {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function pct(fraction) {
  return `${fraction >= 0 ? '+' : ''}${(fraction * 100).toFixed(1)}%`;
}

export function int(value) {
  return Math.round(value).toLocaleString('en-US');
}
