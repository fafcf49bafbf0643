export const DURATIONS_FILE: string;
export function committedDurations(): Record<string, number>;
export function writeDurations(files: readonly { file: string; ms: number }[]): void;
