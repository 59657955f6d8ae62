// The types of heap-limit.mjs (plain JavaScript, so that the server's first start strips no types).
export function heapFlags(options?: { env?: Record<string, string | undefined>; execArgv?: string[]; limitBytes?: number }): string[];
export function allocatorEnv(options?: { env?: Record<string, string | undefined> }): Record<string, string>;
export function boundMemory(): void;
