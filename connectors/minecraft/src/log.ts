// The connector's log line: a message and a few chosen fields, never a bearer (main.ts writes it as JSON on stderr).
export type Log = (message: string, fields?: Record<string, string | number | boolean>) => void;
